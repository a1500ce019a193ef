/** Pure: a JSON text judged without Express (the journal, the token rules and validate-menu use it): how deeply it nests, read without parsing it, and a body's content type and text → a value or the one problem that stops it. */

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

/** A JWS part (base64url of a JSON object) → the object, or undefined for anything else; a JOSE header or claim set is flat, so a deep one is not worth walking. */
export function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  try {
    const text = Buffer.from(part, 'base64url').toString('utf8');
    if (jsonDepth(text) > MAX_JSON_DEPTH) return undefined;
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
