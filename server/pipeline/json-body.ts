/**
 * Reads the body as text (1 MiB at most) and parses it here rather than in express.json, so that
 * empty, malformed, non-object and wrongly-typed bodies each get their own message, after auth.
 */
import express, { type RequestHandler } from 'express';
import { parseJsonBody } from '../domain/parse-json-body.js';

/** Bodies over 1 MiB answer 413 PAYLOAD_TOO_LARGE. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const readText = express.text({ type: () => true, limit: BODY_LIMIT_BYTES, defaultCharset: 'utf-8' });

export const readJsonBody: RequestHandler = (req, res, next) => {
  readText(req, res, (error?: unknown) => {
    if (error) return next(error);
    res.locals.body = parseJsonBody(req.get('content-type'), typeof req.body === 'string' ? req.body : '');
    next();
  });
};
