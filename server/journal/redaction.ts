/** Pure: secrets taken out of text and JSON values, searched as sent and decoded, and replaced in the text as it was sent. */
import { compactView, decodedView, identityView, joinedView, originalSpans, type View } from './normalized-view.js';
import { keySpans, looksLikeJson, MIN_SECRET_LENGTH, secretSpans, SHORTEST_SIGNATURE, type Secrets } from './secret-spans.js';

export { MIN_SECRET_LENGTH } from './secret-spans.js';

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** The spans of `text` (as sent) that hold a secret, through every view of it; merged, in order. */
function spansOf(text: string, secrets: Secrets): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const search = (view: View | undefined, searched: string) => {
    for (const [from, to] of secretSpans(searched, secrets)) found.push(...originalSpans(view, from, to));
  };
  search(undefined, text);
  const decoded = decodedView(text);
  if (decoded !== undefined) search(decoded, decoded.text);
  // Joined as decoded and as sent: decoding can eat a separator and so split a key again.
  const bases = [decoded, identityOf(text)].filter((view): view is View => view !== undefined);
  for (const base of bases) {
    for (const glue of ['', '.'] as const) {
      const joined = joinedView(base, glue);
      if (joined !== undefined) search(joined, joined.text);
    }
  }
  // Compacted as sent and as decoded: decoding can eat a blob's separators (`=53:41` reads as quoted-printable).
  for (const view of decoded === undefined ? [identityView(text)] : [identityView(text), decoded]) {
    const compact = compactView(view);
    if (compact !== undefined) search(compact, compact.text);
  }
  return merge(found);
}

/** An identity view, made only for text that has query separators to join across. */
function identityOf(text: string): View | undefined {
  return /[?&;][^=]{0,64}=/.test(text) ? identityView(text) : undefined;
}

function merge(spans: Array<[number, number]>): Array<[number, number]> {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [spans[0]!];
  for (const [start, end] of spans.slice(1)) {
    const last = merged.at(-1)!;
    if (start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function replaceSpans(text: string, spans: ReadonlyArray<[number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/** `text` without `secrets` (in any letter case, in any encoding above), JWT signatures, or any of `signatures` alone. */
export function scrubText(text: string, secrets: readonly string[], signatures: ReadonlySet<string> = new Set()): string {
  if (!worthSearching(text, secrets)) return text;
  return replaceSpans(text, spansOf(text, { keys: secrets, signatures }));
}

/** Shorter than anything searched for: most strings of a body and of a journal summary are. */
function worthSearching(text: string, secrets: readonly string[]): boolean {
  return text.length >= SHORTEST_SIGNATURE || (text.length >= MIN_SECRET_LENGTH && secrets.some((secret) => secret.length <= text.length));
}

/** Every JWT signature in `text` replaced, by the shape of the token alone. */
export function redactJwtSignatures(text: string): string {
  return scrubText(text, []);
}

/** Redacted together as well as one by one, for a key split across values or a token whose signature travels in another value. */
export function scrubRecord(record: Readonly<Record<string, string>>, secrets: readonly string[], signatures: ReadonlySet<string> = new Set()): Record<string, string> {
  const names = Object.keys(record);
  const values = scrubTogether(
    names.map((name) => record[name]!),
    secrets,
    signatures,
    true,
  );
  const result: Record<string, string> = {};
  names.forEach((name, index) => {
    Object.defineProperty(result, scrubText(name, secrets, signatures), { value: values[index]!, enumerable: true, writable: true, configurable: true });
  });
  return result;
}

/** A piece of a value: the whole value, or a part between the commas that join a header sent twice. */
interface Piece {
  field: number;
  at: number;
  text: string;
}

const TOKEN_PART = /^[A-Za-z0-9_=+/-]{4,}$/;
const TOKEN_TAIL = /^\.?[A-Za-z0-9_+/-]{32,}=*$/;
/** Stands for any signature after a head: whether the head is a token's is what is asked. */
const PROBE_SIGNATURE = 'A'.repeat(43);

/** Values redacted one by one and laid end to end (headers and query parameters, cut at commas; the strings of one JSON object or array). */
export function scrubTogether(values: readonly string[], secrets: readonly string[], signatures: ReadonlySet<string> = new Set(), cutAtCommas = false): string[] {
  const given: Secrets = { keys: secrets, signatures };
  const spans: Array<Array<[number, number]>> = values.map((value) => (worthSearching(value, secrets) ? spansOf(value, given) : []));
  const pieces: Piece[] = cutAtCommas
    ? values.flatMap((value, field) => [...value.matchAll(/[^,]+/g)].map((match) => ({ field, at: match.index + (match[0].length - match[0].trimStart().length), text: match[0].trim() })))
    : values.map((text, field) => ({ field, at: 0, text }));
  if (pieces.length > 1) {
    const mark = (piece: Piece, from: number, to: number) => spans[piece.field]!.push([piece.at + from, piece.at + to]);
    crossingKeys(pieces, secrets, mark);
    for (const tail of splitTokenTails(pieces.map((piece) => piece.text))) mark(pieces[tail]!, pieces[tail]!.text.startsWith('.') ? 1 : 0, pieces[tail]!.text.length);
  }
  return values.map((value, index) => replaceSpans(value, merge(spans[index]!)));
}

/** The key found across the pieces laid end to end, each span cut back into the pieces it covers; one inside a piece was found in its value. */
function crossingKeys(pieces: readonly Piece[], secrets: readonly string[], mark: (piece: Piece, from: number, to: number) => void): void {
  const starts: number[] = [];
  let length = 0;
  for (const piece of pieces) {
    starts.push(length);
    length += piece.text.length;
  }
  if (!secrets.some((key) => key.length >= MIN_SECRET_LENGTH && key.length <= length)) return;
  for (const [start, end] of keySpans(pieces.map((piece) => piece.text).join(''), secrets)) {
    // The last piece starting at or before the span: a binary search, as a body may hold the key many times.
    let low = 0;
    for (let high = pieces.length - 1; low < high; ) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= start) low = middle;
      else high = middle - 1;
    }
    if (end <= starts[low]! + pieces[low]!.text.length) continue;
    for (let index = low; index < pieces.length && starts[index]! < end; index++) {
      const piece = pieces[index]!;
      const [first, last] = [Math.max(start, starts[index]!), Math.min(end, starts[index]! + piece.text.length)];
      if (first < last) mark(piece, first - starts[index]!, last - starts[index]!);
    }
  }
}

/** The pieces that are a signature alone while another piece is a token's header and claims, in any order; each piece is judged once, so the cost is linear. */
function splitTokenTails(pieces: readonly string[]): number[] {
  const tails: number[] = [];
  // Most values are shorter than a signature: the search stops there for almost every request.
  for (let index = 0; index < pieces.length; index++) if (pieces[index]!.length >= 32 && TOKEN_TAIL.test(pieces[index]!)) tails.push(index);
  if (tails.length === 0 || !pieces.some((piece) => isTokenHead(piece, NO_SECRETS))) return [];
  return tails;
}

const NO_SECRETS: Secrets = { keys: [], signatures: new Set() };

/** The signatures (as base64url) of tokens split across `values` (headers; a header sent twice is cut at its commas), for the redactor to remember. */
export function splitTokenSignatures(values: readonly string[]): string[] {
  if (!values.some((value) => value.length >= 32)) return [];
  const pieces = values.flatMap((value) => (value.includes(',') ? value.split(',').map((piece) => piece.trim()) : [value.trim()]));
  return splitTokenTails(pieces).map((tail) => pieces[tail]!.replace(/^\./, '').replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_'));
}

/** Is `text` a token's header and claims (two parts, a dot after them or not), so that a signature glued after it reads as one? */
function isTokenHead(text: string, given: Secrets = NO_SECRETS): boolean {
  const body = text.endsWith('.') ? text.slice(0, -1) : text;
  const dot = body.lastIndexOf('.');
  // A head ends with its claims, which decode to JSON; a whole token ends with a signature, which almost never does.
  if (dot < 4 || !TOKEN_PART.test(body.slice(dot + 1)) || !TOKEN_PART.test(body.slice(dot - 4, dot)) || !looksLikeJson(body.slice(dot + 1))) return false;
  const glued = `${body}.${PROBE_SIGNATURE}`;
  return secretSpans(glued, given, false).some(([, end]) => end === glued.length);
}

/** The walk keeps its own stack, so no value a client sent can exhaust the call stack; `__proto__` keys are copied as plain keys. The strings of one object or array are redacted together. */
export function scrubValue<T>(value: T, secrets: readonly string[], signatures?: ReadonlySet<string>): T {
  if (typeof value === 'string') return scrubText(value, secrets, signatures) as T;
  const shell = (node: unknown): unknown => (Array.isArray(node) ? new Array<unknown>(node.length) : node !== null && typeof node === 'object' ? {} : node);
  /** The children's copies, their strings redacted together. */
  const copies = (children: readonly unknown[]): unknown[] => {
    const strings: number[] = [];
    const copied = children.map((child, index) => {
      if (typeof child === 'string') strings.push(index);
      return shell(child);
    });
    if (strings.length === 1) copied[strings[0]!] = scrubText(children[strings[0]!] as string, secrets, signatures);
    else if (strings.length > 1) {
      const scrubbed = scrubTogether(
        strings.map((index) => children[index] as string),
        secrets,
        signatures,
      );
      strings.forEach((index, at) => (copied[index] = scrubbed[at]));
    }
    return copied;
  };
  const root = shell(value);
  const pending: Array<[source: unknown, copy: unknown]> = [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!;
    if (typeof source !== 'object' || source === null) continue;
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const children: unknown[] = keys === undefined ? (source as unknown[]) : keys.map((key) => (source as Record<string, unknown>)[key]);
    const childCopies = copies(children);
    children.forEach((child, index) => {
      if (keys === undefined) (copy as unknown[])[index] = childCopies[index];
      else {
        const name = scrubText(keys[index]!, secrets, signatures);
        // A plain assignment would set the prototype for `__proto__`: that one key is defined instead.
        if (name === '__proto__') Object.defineProperty(copy, name, { value: childCopies[index], enumerable: true, writable: true, configurable: true });
        else (copy as Record<string, unknown>)[name] = childCopies[index];
      }
      if (typeof child === 'object' && child !== null) pending.push([child, childCopies[index]]);
    });
  }
  return root as T;
}
