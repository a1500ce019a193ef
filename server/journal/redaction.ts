/** Pure: secrets taken out of text and JSON values, searched as sent and decoded, and replaced in the text as it was sent. */
import { compactView, decodedView, identityView, joinedView, originalSpans, type View } from './normalized-view.js';
import { keySpans, MIN_SECRET_LENGTH, secretSpans, SHORTEST_SIGNATURE, type Secrets } from './secret-spans.js';

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
  // Shorter than anything searched for: most strings of a body and of a journal summary are.
  if (text.length < MIN_SECRET_LENGTH || (text.length < SHORTEST_SIGNATURE && !secrets.some((secret) => secret.length <= text.length))) return text;
  return replaceSpans(text, spansOf(text, { keys: secrets, signatures }));
}

/** Every JWT signature in `text` replaced, by the shape of the token alone. */
export function redactJwtSignatures(text: string): string {
  return scrubText(text, []);
}

/** Redacted together as well as one by one, for a key split across values or a token whose signature travels in another value. */
export function scrubRecord(record: Readonly<Record<string, string>>, secrets: readonly string[], signatures: ReadonlySet<string> = new Set()): Record<string, string> {
  const given: Secrets = { keys: secrets, signatures };
  const names = Object.keys(record);
  const values = names.map((name) => record[name]!);
  const spans: Array<Array<[number, number]>> = values.map((value) => (value.length < MIN_SECRET_LENGTH ? [] : spansOf(value, given)));
  // The pieces: every value, cut at the commas that join a header sent twice.
  const pieces = values.flatMap((value, field) => [...value.matchAll(/[^,]+/g)].map((match) => ({ field, at: match.index + (match[0].length - match[0].trimStart().length), text: match[0].trim() })));
  const mark = (piece: (typeof pieces)[number], from: number, to: number) => spans[piece.field]!.push([piece.at + from, piece.at + to]);
  if (pieces.length > 1) {
    // The pieces laid end to end: a span found there is cut back into the pieces it covers.
    const starts: number[] = [];
    let length = 0;
    for (const piece of pieces) {
      starts.push(length);
      length += piece.text.length;
    }
    for (const [start, end] of keySpans(pieces.map((piece) => piece.text).join(''), secrets)) {
      pieces.forEach((piece, index) => {
        const [first, last] = [Math.max(start, starts[index]!), Math.min(end, starts[index]! + piece.text.length)];
        if (first < last) mark(piece, first - starts[index]!, last - starts[index]!);
      });
    }
    // A token's header and claims in one piece, its signature alone in another, in any order.
    for (const head of pieces.filter((piece) => /[A-Za-z0-9_=+/-]{4,}\.[A-Za-z0-9_=+/-]{4,}\.?$/.test(piece.text))) {
      for (const tail of pieces.filter((piece) => piece !== head && /^\.?[A-Za-z0-9_+/-]{32,}=*$/.test(piece.text))) {
        const glued = `${head.text.replace(/\.$/, '')}.${tail.text.replace(/^\./, '')}`;
        const signed = secretSpans(glued, given, false).some(([, end]) => end === glued.length);
        if (signed) mark(tail, tail.text.startsWith('.') ? 1 : 0, tail.text.length);
      }
    }
  }
  const result: Record<string, string> = {};
  names.forEach((name, index) => {
    Object.defineProperty(result, scrubText(name, secrets, signatures), { value: replaceSpans(values[index]!, merge(spans[index]!)), enumerable: true, writable: true, configurable: true });
  });
  return result;
}

/** The walk keeps its own stack, so no value a client sent can exhaust the call stack; `__proto__` keys are copied as plain keys. */
export function scrubValue<T>(value: T, secrets: readonly string[], signatures?: ReadonlySet<string>): T {
  const scrub = (text: string) => scrubText(text, secrets, signatures);
  const shell = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (Array.isArray(node)) return new Array<unknown>(node.length);
    if (node !== null && typeof node === 'object') return {};
    return node;
  };
  const root = shell(value);
  const pending: Array<[source: unknown, copy: unknown]> = [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!;
    if (typeof source !== 'object' || source === null) continue;
    if (Array.isArray(source)) {
      const list = copy as unknown[];
      for (let index = 0; index < source.length; index++) {
        const child: unknown = source[index];
        const childCopy = shell(child);
        list[index] = childCopy;
        if (typeof child === 'object' && child !== null) pending.push([child, childCopy]);
      }
      continue;
    }
    const record = copy as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const child: unknown = (source as Record<string, unknown>)[key];
      const childCopy = shell(child);
      const name = scrub(key);
      // A plain assignment would set the prototype for `__proto__`: that one key is defined instead.
      if (name === '__proto__') Object.defineProperty(record, name, { value: childCopy, enumerable: true, writable: true, configurable: true });
      else record[name] = childCopy;
      if (typeof child === 'object' && child !== null) pending.push([child, childCopy]);
    }
  }
  return root as T;
}
