/** Pure: secrets taken out of text and JSON values, searched as sent and decoded, and replaced in the text as it was sent. */
import { compactView, decodedView, identityView, joinedView, originalSpans, type View } from './normalized-view.js';
import { MIN_SECRET_LENGTH, secretSpans, SHORTEST_SIGNATURE, type Secrets } from './secret-spans.js';
import { fragmentTest, headSignatures, markSplitSecrets, SHORTEST_FRAGMENT, type Piece } from './split-secrets.js';

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
  if (text.length >= SHORTEST_FRAGMENT) keyFragments(text, secrets.keys, found);
  return merge(found);
}

/** A run between the separators of paths, queries, lists and words. */
const WORD = /[^\s/?&=,;:"'<>()[\]{}]{16,}/g;

/** Adds each word of `text` that is a piece of the key (16 characters or more): a key cut up and sent in any order. */
function keyFragments(text: string, keys: readonly string[], found: Array<[number, number]>): void {
  if (!keys.some((key) => key.length > SHORTEST_FRAGMENT)) return;
  const isFragment = fragmentTest(keys);
  for (const match of text.matchAll(WORD)) if (isFragment(match[0])) found.push([match.index, match.index + match[0].length]);
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

/** Values redacted one by one and laid end to end (headers and query parameters, cut at commas; the names and strings of one JSON object, the strings of one array). */
export function scrubTogether(values: readonly string[], secrets: readonly string[], signatures: ReadonlySet<string> = new Set(), cutAtCommas = false): string[] {
  const pieces: Piece[] = cutAtCommas
    ? values.flatMap((value, field) => [...value.matchAll(/[^,]+/g)].map((match) => ({ field, at: match.index + (match[0].length - match[0].trimStart().length), text: match[0].trim() })))
    : values.map((text, field) => ({ field, at: 0, text }));
  // A token whose pieces are apart is found by the signature its header and claims would have.
  const { heads, signatures: learnt } = pieces.length > 1 ? headSignatures(pieces.map((piece) => piece.text), secrets) : { heads: 0, signatures: [] };
  const given: Secrets = { keys: secrets, signatures: learnt.length === 0 ? signatures : new Set([...signatures, ...learnt]) };
  const spans: Array<Array<[number, number]>> = values.map((value) => (worthSearching(value, secrets) ? spansOf(value, given) : []));
  if (pieces.length > 1) markSplitSecrets(pieces, [...secrets, ...learnt], heads, (piece, from, to) => spans[piece.field]!.push([piece.at + from, piece.at + to]));
  return values.map((value, index) => replaceSpans(value, merge(spans[index]!)));
}

/** The walk keeps its own stack, so no value a client sent can exhaust the call stack; `__proto__` keys are copied as plain keys. The strings of one object or array are redacted together. */
export function scrubValue<T>(value: T, secrets: readonly string[], signatures?: ReadonlySet<string>): T {
  if (typeof value === 'string') return scrubText(value, secrets, signatures) as T;
  const shell = (node: unknown): unknown => (Array.isArray(node) ? new Array<unknown>(node.length) : node !== null && typeof node === 'object' ? {} : node);
  /** The names' and children's copies, the names and the strings redacted together. */
  const copies = (names: readonly string[], children: readonly unknown[]): { names: string[]; copied: unknown[] } => {
    const texts: string[] = [...names];
    const strings: number[] = [];
    const copied = children.map((child, index) => {
      if (typeof child === 'string') {
        strings.push(index);
        texts.push(child);
      }
      return shell(child);
    });
    const scrubbed = texts.length === 1 ? [scrubText(texts[0]!, secrets, signatures)] : texts.length > 1 ? scrubTogether(texts, secrets, signatures) : [];
    strings.forEach((index, at) => (copied[index] = scrubbed[names.length + at]));
    return { names: scrubbed.slice(0, names.length), copied };
  };
  const root = shell(value);
  const pending: Array<[source: unknown, copy: unknown]> = [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!;
    if (typeof source !== 'object' || source === null) continue;
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const children: unknown[] = keys === undefined ? (source as unknown[]) : keys.map((key) => (source as Record<string, unknown>)[key]);
    const { names, copied: childCopies } = copies(keys ?? [], children);
    children.forEach((child, index) => {
      if (keys === undefined) (copy as unknown[])[index] = childCopies[index];
      else {
        const name = names[index]!;
        // A plain assignment would set the prototype for `__proto__`: that one key is defined instead.
        if (name === '__proto__') Object.defineProperty(copy, name, { value: childCopies[index], enumerable: true, writable: true, configurable: true });
        else (copy as Record<string, unknown>)[name] = childCopies[index];
      }
      if (typeof child === 'object' && child !== null) pending.push([child, childCopies[index]]);
    });
  }
  return root as T;
}
