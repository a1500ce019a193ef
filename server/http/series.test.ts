import { describe, expect, it } from '@jest/globals';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { series } from './series.js';

/** Runs `handler` on a bare request and resolves with what it passed to its own next. */
function run(handler: RequestHandler): Promise<{ error: unknown; order: string[] }> {
  const order: string[] = [];
  const res = { locals: { order } } as unknown as Response;
  return new Promise((resolve) => {
    const done: NextFunction = (error?: unknown) => resolve({ error, order });
    void handler({} as Request, res, done);
  });
}

const step =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    (res.locals.order as string[]).push(name);
    next();
  };

describe('series', () => {
  it('runs every stage in order, then goes on', async () => {
    await expect(run(series(step('a'), step('b'), step('c')))).resolves.toEqual({ error: undefined, order: ['a', 'b', 'c'] });
  });

  it('goes on at once with no stage', async () => {
    await expect(run(series())).resolves.toEqual({ error: undefined, order: [] });
  });

  it('waits for a stage that calls next later', async () => {
    const later: RequestHandler = (_req, res, next) => {
      setTimeout(() => {
        (res.locals.order as string[]).push('later');
        next();
      }, 1);
    };
    await expect(run(series(step('a'), later, step('b')))).resolves.toEqual({ error: undefined, order: ['a', 'later', 'b'] });
  });

  it.each([
    ['calls next(error)', (error: Error): RequestHandler => (_req, _res, next) => next(error)],
    [
      'throws',
      (error: Error): RequestHandler => () => {
        throw error;
      },
    ],
    ['returns a rejected promise', (error: Error): RequestHandler => async () => Promise.reject(error)],
  ])('skips the remaining stages when one %s, and passes its error on', async (_case, failing) => {
    const error = new Error('stage failed');
    await expect(run(series(step('a'), failing(error), step('never')))).resolves.toEqual({ error, order: ['a'] });
  });

  it('passes on an error for a promise rejected with nothing', async () => {
    const outcome = await run(series(async () => Promise.reject(undefined)));
    expect(outcome.error).toEqual(new Error('Rejected promise'));
  });

  it('does not go on for an async stage that answered and resolved without calling next', async () => {
    const answered: RequestHandler = async (_req, res) => {
      (res.locals.order as string[]).push('answered');
    };
    const outcome = await Promise.race([run(series(answered, step('never'))), new Promise((resolve) => setTimeout(() => resolve('no next'), 20))]);
    expect(outcome).toBe('no next');
  });
});
