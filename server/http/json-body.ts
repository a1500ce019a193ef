/**
 * The body of a POS call, in two stages. `readBodyText` reads it as text (1 MiB at most) before authentication,
 * so the journal keeps what a refused call carried (a status call refused with 401 still names its ExternalId);
 * any problem reading it waits. `parseBody` then, after auth and the location header, raises that problem or
 * parses the text here rather than in express.json, so empty, malformed, non-object and wrongly-typed bodies each
 * get their own message.
 */
import express, { type RequestHandler } from 'express';
import { parseJsonBody } from './parse-json-body.js';
import { readPlainBody } from './read-plain-body.js';
import { MAX_BODY_BYTES } from '../hosted/quotas.js';

/** Bodies over 1 MiB answer 413 PAYLOAD_TOO_LARGE; a hosted partner's limit may be lower (domain/quotas.ts). */
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
