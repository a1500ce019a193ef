/** Stages run as one Express handler, since each layer Express walks costs a refund; Express's contract is kept: next(), next(error), and a throw or rejection passed on. */
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
