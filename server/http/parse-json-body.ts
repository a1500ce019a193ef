/** Pure: a request body's content type and text → a JSON value, or the one problem that stops it. */

import { MAX_JSON_DEPTH, jsonDepth, tooDeepMessage } from './json-depth.js';

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
