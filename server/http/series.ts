/**
 * Stages run one after another as one Express handler. Each stage Express runs itself costs a layer walk (a path
 * match, the mount's URL trimmed and restored, a promise check); the POS API's nine stages made that walk a
 * visible share of a refund's CPU (npm run bench). The stages keep Express's contract: `next()` goes on,
 * `next(error)` skips to the error handler, and a throw or a rejected promise is passed on as `next(error)`.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function series(...stages: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      // Express's own test: any truthy value is an error (or 'route'/'router', which it handles itself).
      if (error) return done(error);
      if (index === stages.length) return done();
      const stage = stages[index++]!;
      try {
        const result: unknown = stage(req, res, next);
        if (result instanceof Promise) result.catch((reason: unknown) => done(reason ?? new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
