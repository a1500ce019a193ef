/**
 * The body of a POS call, in two stages. `readBodyText` reads it as text (1 MiB at most) before authentication,
 * so the journal keeps what a refused call carried (a status call refused with 401 still names its ExternalId);
 * any problem reading it waits. `parseBody` then, after auth and the location header, raises that problem or
 * parses the text here rather than in express.json, so empty, malformed, non-object and wrongly-typed bodies each
 * get their own message.
 */
import express, { type RequestHandler } from 'express';
import { parseJsonBody } from '../domain/parse-json-body.js';
import { readPlainBody } from './read-plain-body.js';

/** Bodies over 1 MiB answer 413 PAYLOAD_TOO_LARGE. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const readText = express.text({ type: () => true, limit: BODY_LIMIT_BYTES, defaultCharset: 'utf-8' });

export const readBodyText: RequestHandler = (req, res, next) => {
  // Authentication is judged first (a bad token is 401 whatever the body): the problem is raised by parseBody.
  const settle = (error?: unknown) => {
    if (error) res.locals.bodyError = error;
    next();
  };
  if (!readPlainBody(req, BODY_LIMIT_BYTES, settle)) readText(req, res, settle);
};

export const parseBody: RequestHandler = (req, res, next) => {
  if (res.locals.bodyError) return next(res.locals.bodyError);
  res.locals.body = parseJsonBody(req.get('content-type'), typeof req.body === 'string' ? req.body : '');
  next();
};

/** Both stages at once, for the control API (no authentication stage between them). */
export const readJsonBody: RequestHandler = (req, res, next) => {
  readBodyText(req, res, () => parseBody(req, res, next));
};
