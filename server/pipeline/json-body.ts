/**
 * Reads the body as text (1 MiB at most) and parses it here rather than in express.json, so that
 * empty, malformed, non-object and wrongly-typed bodies each get their own message, after auth.
 */
import express, { type RequestHandler } from 'express';
import type { ParsedBody } from './locals.js';

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

/** Pure: the body's content type and text → a JSON value or the one problem that stops it. */
export function parseJsonBody(contentType: string | undefined, text: string): ParsedBody {
  const bytes = Buffer.byteLength(text);
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    const got = contentType ? `'${contentType}'` : 'no Content-Type header';
    return { ok: false, bytes, problem: `Content-Type must be application/json (§4), got ${got}` };
  }
  if (text.trim() === '') return { ok: false, bytes, problem: 'body is empty; send a JSON object' };
  try {
    return { ok: true, bytes, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, bytes, problem: `body is not valid JSON: ${(error as Error).message}` };
  }
}
