/** Pure: how deeply a JSON text nests arrays and objects, read without parsing it. */

/**
 * The deepest nesting a body or token part may have. A §2 payload needs fewer than 10 levels (a menu item's
 * modifiers are the deepest); 32 leaves room for extra fields and still keeps every walk over a value short.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of `[` and `{` in `text`, brackets inside strings not counted. One pass with a counter,
 * no recursion, so a body of 20,000 brackets costs what any body of its size costs. Malformed text still gets a
 * number: JSON.parse judges its syntax afterwards.
 */
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
