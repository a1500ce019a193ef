/** The body of a POS call in two stages: read as text before authentication, so the journal keeps what a refused call carried, then parsed after, so each wrong body gets its own message. */
import express, { type RequestHandler, type Request } from 'express';
import { MAX_BODY_BYTES } from '../hosted/quotas.js';

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

/** Pure: a request body's content type and text → a JSON value, or the one problem that stops it. */

/** The body as read off the wire: a parsed JSON value, or the reason it is not one. */
export type ParsedBody = { ok: true; value: unknown; bytes: number } | { ok: false; problem: string; bytes: number };

export function parseJsonBody(contentType: string | undefined, text: string): ParsedBody {
  const bytes = Buffer.byteLength(text);
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    const got = contentType ? `'${contentType}'` : 'no Content-Type header';
    return { ok: false, bytes, problem: `Content-Type must be application/json (§4), got ${got}` };
  }
  if (text.trim() === '') return { ok: false, bytes, problem: 'body is empty; send a JSON object' };
  // Before parsing: nothing downstream (rules, messages, the journal) has to walk a value deeper than this.
  const depth = jsonDepth(text);
  if (depth > MAX_JSON_DEPTH) return { ok: false, bytes, problem: tooDeepMessage('body', depth) };
  try {
    return { ok: true, bytes, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, bytes, problem: `body is not valid JSON: ${(error as Error).message}` };
  }
}

/** Pure: how deeply a JSON text nests arrays and objects, read without parsing it. */

/** A §2 payload needs fewer than 10 levels; 32 leaves room and keeps every walk over a value short. */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One pass with a counter, no recursion, so a body of 20,000 brackets costs what any body of its size costs. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > deepest) deepest = depth;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

/** The message of a body that nests deeper than MAX_JSON_DEPTH. */
export function tooDeepMessage(what: string, depth: number): string {
  return `${what} nests arrays and objects ${depth} levels deep; the sandbox accepts at most ${MAX_JSON_DEPTH} levels (a §2 payload needs fewer than 10)`;
}

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
