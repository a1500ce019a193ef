/**
 * An HTTP/1.1 request must carry Host (RFC 9112 §3.2). Node refuses one without it with an empty 400 unless
 * told not to; the sandbox's servers tell it not to, so that the refusal comes here, in the envelope.
 */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

export const requireHostHeader: RequestHandler = (req, _res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
    throw new ApiError('INVALID_REQUEST', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2); send Host: 127.0.0.1:<port>');
  }
  next();
};
