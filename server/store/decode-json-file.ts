/** Pure: a stored JSON file's bytes → its value, or what is wrong in words that never quote the file: a damaged file may hold anything. */


export type DecodedFile = { ok: true; value: unknown } | { ok: false; problem: string };

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses a stored file; a problem is worded to follow "<path>: ". */
export function decodeJsonFile(bytes: Uint8Array): DecodedFile {
  if (bytes.length === 0) return { ok: false, problem: 'the file is empty (0 bytes)' };
  const malformed = malformedUtf8(bytes);
  if (malformed) {
    const what = malformed.count === 1 ? 'byte that is' : 'bytes that are';
    return { ok: false, problem: `holds ${malformed.count} ${what} not UTF-8 text (the first at byte offset ${malformed.first}), so it is not JSON` };
  }
  // The byte order mark is kept, so offsets count every byte of the file (JSON has no place for one).
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Only the position is kept from a failed parse: JSON.parse's message quotes the text.
  }
  if (/^[ \t\n\r]*$/.test(text)) return { ok: false, problem: `the file holds only whitespace (${bytes.length} bytes)` };
  const index = jsonErrorIndex(text);
  if (index >= text.length) {
    return { ok: false, problem: `the JSON is unfinished at the end of the file (${bytes.length} bytes): the file looks cut short` };
  }
  // index < 0 (the scanner finds no fault where JSON.parse did) cannot happen; the words stay true if it does.
  if (index < 0) return { ok: false, problem: `not valid JSON (${bytes.length} bytes)` };
  const mark = index === 0 && text.startsWith('\uFEFF') ? ' (a UTF-8 byte order mark)' : '';
  return { ok: false, problem: `not valid JSON at byte offset ${Buffer.byteLength(text.slice(0, index), 'utf8')} of ${bytes.length}${mark}` };
}

/** The native decoder recognises well-formed text, the usual case; the scan only counts what is wrong. */
export function malformedUtf8(bytes: Uint8Array): { count: number; first: number } | undefined {
  try {
    FATAL_UTF8.decode(bytes);
    return undefined;
  } catch {
    return scanMalformedUtf8(bytes);
  }
}

/** The scan of malformedUtf8, byte by byte (exported for its test against the native decoder). */
export function scanMalformedUtf8(bytes: Uint8Array): { count: number; first: number } | undefined {
  let count = 0;
  let first = -1;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (first < 0) first = i;
    count++;
    i++;
  }
  return count === 0 ? undefined : { count, first };
}

/** The length of the well-formed sequence at `i`, or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    // No overlong forms, no UTF-16 surrogates.
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    // No overlong forms, nothing above U+10FFFF.
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  for (let k = 1; k < length; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return 0;
  }
  return length;
}

/** Pure: where a text stops being JSON, worked out here because JSON.parse's messages quote the text, and a broken state file is never echoed. */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9A-Fa-f]$/;
const DIGIT = /^[0-9]$/;

/** What may come next: a value, an object key (the first may be `}`), an array item (the first may be `]`), or what follows a value. */
type Expecting = 'value' | 'first-key' | 'key' | 'first-item' | 'after-value';

/** `text.length` when the text ends early, -1 when all of it is JSON; nesting on a stack of its own, so a deep garbage file cannot overflow the call stack. */
export function jsonErrorIndex(text: string): number {
  const open: Array<'{' | '['> = [];
  let expecting: Expecting = 'value';
  let i = 0;
  const end = text.length;
  for (;;) {
    while (i < end && WHITESPACE.has(text[i]!)) i++;
    if (i === end) return open.length === 0 && expecting === 'after-value' ? -1 : end;
    const c = text[i]!;
    if (expecting === 'after-value') {
      const top = open.at(-1);
      if (top === undefined) return i;
      if (c === ',') expecting = top === '{' ? 'key' : 'value';
      else if ((c === '}' && top === '{') || (c === ']' && top === '[')) open.pop();
      else return i;
      i++;
      continue;
    }
    if ((expecting === 'first-key' && c === '}') || (expecting === 'first-item' && c === ']')) {
      open.pop();
      expecting = 'after-value';
      i++;
      continue;
    }
    if (expecting === 'first-key' || expecting === 'key') {
      if (c !== '"') return i;
      i = stringEnd(text, i);
      if (i < 0 || i === end) return i < 0 ? -i - 1 : end;
      while (i < end && WHITESPACE.has(text[i]!)) i++;
      if (i === end) return end;
      if (text[i] !== ':') return i;
      i++;
      expecting = 'value';
      continue;
    }
    // A value: 'value' or 'first-item'.
    if (c === '{' || c === '[') {
      open.push(c);
      expecting = c === '{' ? 'first-key' : 'first-item';
      i++;
      continue;
    }
    const next = c === '"' ? stringEnd(text, i) : c === '-' || DIGIT.test(c) ? numberEnd(text, i) : literalEnd(text, i);
    if (next < 0) return -next - 1;
    i = next;
    expecting = 'after-value';
  }
}

/** The index after the string that starts at `start`, or -(bad index + 1). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return i + 1;
    if (c.charCodeAt(0) < 0x20) return -i - 1;
    if (c === '\\') {
      const escape = text[i + 1];
      if (escape === undefined) return -text.length - 1;
      if (escape === 'u') {
        for (let k = 2; k < 6; k++) {
          if (i + k >= text.length) return -text.length - 1;
          if (!HEX.test(text[i + k]!)) return -(i + k) - 1;
        }
        i += 6;
        continue;
      }
      if (!ESCAPES.has(escape)) return -(i + 1) - 1;
      i += 2;
      continue;
    }
    i++;
  }
  return -text.length - 1;
}

/** The index after the number that starts at `start`, or -(bad index + 1). */
function numberEnd(text: string, start: number): number {
  let i = start;
  const digits = (): boolean => {
    if (i >= text.length || !DIGIT.test(text[i]!)) return false;
    while (i < text.length && DIGIT.test(text[i]!)) i++;
    return true;
  };
  if (text[i] === '-') i++;
  if (text[i] === '0') i++;
  else if (!digits()) return -i - 1;
  if (text[i] === '.') {
    i++;
    if (!digits()) return -i - 1;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    if (!digits()) return -i - 1;
  }
  return i;
}

/** The index after `true`, `false` or `null` at `start`, or -(bad index + 1). */
function literalEnd(text: string, start: number): number {
  const literal = ['true', 'false', 'null'].find((word) => word[0] === text[start]);
  if (literal === undefined) return -start - 1;
  for (let k = 1; k < literal.length; k++) {
    if (start + k >= text.length) return -text.length - 1;
    if (text[start + k] !== literal[k]) return -(start + k) - 1;
  }
  return start + literal.length;
}
