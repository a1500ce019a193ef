/** The body of a POS call in two stages: read as text before authentication, so the journal keeps what a refused call carried, then parsed after, so each wrong body gets its own message. */
import express, { type RequestHandler, type Request } from 'express';
import { MAX_BODY_BYTES } from '../hosted/quotas.js';
import { parseJsonBody } from './json-text.js';

/** Bodies over 1 MiB answer 413 PAYLOAD_TOO_LARGE; a hosted partner's limit may be lower (hosted/quotas.ts). */
export const BODY_LIMIT_BYTES = MAX_BODY_BYTES;

/** The first stage, reading at most `limit` bytes: larger bodies answer 413 naming that limit. */
export function bodyTextReader(limit: number): RequestHandler {
  const readText = express.text({ type: () => true, limit, defaultCharset: 'utf-8' });
  return (req, res, next) => {
    // Authentication is judged first (a bad token is 401 whatever the body): the problem is raised by parseBody.
    const settle = (error?: unknown) => {
      if (error) res.locals.bodyError = error;
      next();
    };
    if (!readPlainBody(req, limit, settle)) readText(req, res, settle);
  };
}

export const readBodyText: RequestHandler = bodyTextReader(BODY_LIMIT_BYTES);

export const parseBody: RequestHandler = (req, res, next) => {
  if (res.locals.bodyError) return next(res.locals.bodyError);
  res.locals.body = parseJsonBody(req.get('content-type'), typeof req.body === 'string' ? req.body : '');
  next();
};

/** Both stages at once, for the control API (no authentication stage between them). */
export const readJsonBody: RequestHandler = (req, res, next) => {
  readBodyText(req, res, () => parseBody(req, res, next));
};

/** The usual POS call's body read directly (known length, no encoding, UTF-8), since body-parser's reader is a visible share of a refund; its outcome is body-parser's. */

/** A Content-Type with no parameters, or whose only parameter names UTF-8: body-parser would read it as UTF-8 too. */
const UTF8_OR_NO_CHARSET = /^[^;]*(;\s*charset\s*=\s*"?utf-?8"?\s*)?$/i;
const DIGITS = /^\d{1,10}$/;

/** Starts reading and returns true, or returns false (nothing read) for a body body-parser must read. */
export function readPlainBody(req: Request, limit: number, done: (error?: unknown) => void): boolean {
  const { headers } = req;
  const declared = headers['content-length'];
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined || declared === undefined || !DIGITS.test(declared)) return false;
  const length = Number(declared);
  const type = headers['content-type'];
  if (length > limit || (type !== undefined && !UTF8_OR_NO_CHARSET.test(type))) return false;
  // A request already read, or whose connection is gone, is body-parser's to judge.
  if (req.readableEnded || req.destroyed || req.socket?.readable !== true) return false;

  // One chunk holds almost every body: an array and a copy only when a second comes.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  };
  const finish = (error?: unknown) => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', finish);
    if (error) return done(error);
    const text = more !== undefined ? Buffer.concat(more, received).toString('utf8') : (first?.toString('utf8') ?? '');
    req.body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    done();
  };
  const onEnd = () => finish();
  const onAborted = () => finish(abortedError(length, received));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', finish);
  return true;
}

/** The error raw-body gives for a body whose connection closed before it was whole. */
function abortedError(length: number, received: number): Error {
  return Object.assign(new Error('request aborted'), {
    status: 400,
    statusCode: 400,
    expose: true,
    code: 'ECONNABORTED',
    expected: length,
    length,
    received,
    type: 'request.aborted',
  });
}
