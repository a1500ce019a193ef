/** x-request-id in, echoed out; one is generated when the client sent none. */
import type { RequestHandler } from 'express';

const USABLE_ID = /^[\x21-\x7e]{1,200}$/;

export function requestId(newId: () => string): RequestHandler {
  return (req, res, next) => {
    const sent = req.get('x-request-id')?.trim();
    res.locals.requestId = sent !== undefined && USABLE_ID.test(sent) ? sent : newId();
    res.set('x-request-id', res.locals.requestId);
    next();
  };
}
