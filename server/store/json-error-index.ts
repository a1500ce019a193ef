/**
 * Pure: where a text stops being JSON (RFC 8259, as JSON.parse reads it). JSON.parse's own messages quote the text
 * they fail on, and a broken state file must never be echoed, so the position is worked out here instead.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9A-Fa-f]$/;
const DIGIT = /^[0-9]$/;

/** What may come next: a value, an object key (the first may be `}`), an array item (the first may be `]`), or what follows a value. */
type Expecting = 'value' | 'first-key' | 'key' | 'first-item' | 'after-value';

/**
 * The index of the first character that cannot continue a JSON text, `text.length` when the text ends before its
 * JSON is complete, or -1 when the whole text is JSON. Nesting is kept on a stack, not the call stack, so a deep
 * garbage file cannot overflow it.
 */
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
