/** Pure: a secret cut across values that belong together (headers, query parameters, path segments, an object's names and strings): the key or a signature laid end to end, a token's signature worked out from its header and claims, and fragments of either in any order. */
import { createHmac } from 'node:crypto';
import { keySpans, looksLikeJson, MIN_SECRET_LENGTH, secretSpans, type Secrets } from './secret-spans.js';

/** A piece of a value: the whole value, or a part between the commas that join a header sent twice. */
export interface Piece {
  field: number;
  at: number;
  text: string;
}

export type Mark = (piece: Piece, from: number, to: number) => void;

const TOKEN_PART = /^[A-Za-z0-9_=+/-]{4,}$/;
const HEAD_CHARACTER = /[A-Za-z0-9_=+/.-]/;
/** A base64 part whose bytes may start a JSON object: `{`, a space or a BOM first. */
const JSON_START = /^[eI7]/;
const NO_SECRETS: Secrets = { keys: [], signatures: new Set() };
/** Stands for any signature after a head: whether the head is a token's is what is asked. */
const PROBE_SIGNATURE = 'A'.repeat(43);
/** A signature alone: an HMAC's length in base64 (HS256, HS384, HS512), a dot before it or padding after it. */
const TOKEN_TAIL = /^\.?([A-Za-z0-9_+/-]{43}|[A-Za-z0-9_+/-]{64}|[A-Za-z0-9_+/-]{86})=*$/;
/** A piece this long that is part of the key or of a worked-out signature is redacted whole: a secret cut up and sent in any order. */
export const SHORTEST_FRAGMENT = 16;
const HMACS: Record<string, string> = { HS384: 'sha384', HS512: 'sha512' };
/** A value carries a token or two: past this many heads in one, no more signatures are worked out, so a body of heads costs a bounded number of HMACs. */
export const HEADS_WORKED_OUT = 64;

/** Is `text` a token's header and claims (two parts, a dot after them or not), so that a signature glued after it reads as one? */
export function isTokenHead(text: string): boolean {
  const body = text.endsWith('.') ? text.slice(0, -1) : text;
  const dot = body.lastIndexOf('.');
  // A head ends with its claims, which decode to JSON; a whole token ends with a signature, which almost never does.
  if (dot < 4 || !TOKEN_PART.test(body.slice(dot + 1)) || !TOKEN_PART.test(body.slice(dot - 4, dot)) || !looksLikeJson(body.slice(dot + 1))) return false;
  const glued = `${body}.${PROBE_SIGNATURE}`;
  return secretSpans(glued, NO_SECRETS, false).some(([, end]) => end === glued.length);
}

/** The heads among `pieces` (one piece, or two in a row as header and claims), and the signature each key gives each: what a token cut apart is found by, whatever the order or form of its other pieces. */
export function headSignatures(pieces: readonly string[], keys: readonly string[]): { heads: number; signatures: string[] } {
  const heads: string[] = [];
  for (let index = 0; index < pieces.length && heads.length < HEADS_WORKED_OUT; index++) {
    const piece = pieces[index]!;
    if (piece.length < 9) continue;
    if (piece.includes('.') && isTokenHead(piece)) heads.push(piece);
    const next = pieces[index + 1];
    if (next !== undefined && JSON_START.test(piece) && TOKEN_PART.test(piece) && TOKEN_PART.test(next) && isTokenHead(`${piece}.${next}`)) heads.push(`${piece}.${next}`);
  }
  const signatures = new Set<string>();
  for (const head of heads) {
    for (const input of signingInputs(head)) {
      const hash = HMACS[algOf(input)] ?? 'sha256';
      for (const key of keys) if (key.length >= MIN_SECRET_LENGTH) signatures.add(createHmac(hash, key).update(input).digest('base64url'));
    }
  }
  return { heads: heads.length, signatures: [...signatures] };
}

/** What a head's signer signed: its two parts as base64url, without a prefix glued before them (`Bearer `, `tok_`, `t=`). */
function signingInputs(head: string): string[] {
  // The run the head ends with, found from its end: a pattern searched from every start would read a long value again at each.
  let start = head.length;
  while (start > 0 && HEAD_CHARACTER.test(head[start - 1]!)) start -= 1;
  const parts = head.slice(start).replace(/\.$/, '').split('.');
  if (parts.length < 2) return [];
  const url = (part: string) => part.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
  const [header, claims] = [parts.at(-2)!, url(parts.at(-1)!)];
  const glue = Math.max(header.lastIndexOf('='), header.lastIndexOf('/'), header.lastIndexOf('+'), header.lastIndexOf('_'));
  const headers = glue >= 0 && glue < header.length - 4 ? [header, header.slice(glue + 1)] : [header];
  return headers.map((part) => `${url(part)}.${claims}`);
}

function algOf(input: string): string {
  try {
    const alg: unknown = (JSON.parse(Buffer.from(input.slice(0, input.indexOf('.')), 'base64url').toString()) as { alg?: unknown }).alg;
    return typeof alg === 'string' ? alg : '';
  } catch {
    return '';
  }
}

/** Marks what is cut across the pieces: `secrets` laid end to end, fragments of them alone, and, beside a head, a piece that is a signature alone. */
export function markSplitSecrets(pieces: readonly Piece[], secrets: readonly string[], heads: number, mark: Mark): void {
  crossingSpans(pieces, secrets, mark);
  const isFragment = fragmentTest(secrets);
  for (const piece of pieces) {
    const fragment = isFragment(piece.text.replace(/^\./, '').replace(/=+$/, ''));
    // A token signed with a key the sandbox does not know: a signature's length is all there is to go by.
    if (fragment || (heads > 0 && TOKEN_TAIL.test(piece.text))) mark(piece, piece.text.startsWith('.') ? 1 : 0, piece.text.length);
  }
}

/** A test of whether a text is a piece (16 characters or more, any letter case) of one of `secrets`. */
export function fragmentTest(secrets: readonly string[]): (text: string) => boolean {
  const lower = secrets.filter((secret) => secret.length > SHORTEST_FRAGMENT).map((secret) => secret.toLowerCase());
  return (text) => text.length >= SHORTEST_FRAGMENT && lower.some((secret) => secret.includes(text.toLowerCase()));
}

/** The secrets found across the pieces laid end to end, each span cut back into the pieces it covers; one inside a piece was found in its value. */
function crossingSpans(pieces: readonly Piece[], secrets: readonly string[], mark: Mark): void {
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

/** The signatures `keys` give the heads of tokens cut across `values` (headers, query values, path segments; a header sent twice is cut at its commas), for the redactor to remember. */
export function splitTokenSignatures(values: readonly string[], keys: readonly string[]): string[] {
  if (!values.some((value) => value.length >= 32)) return [];
  const pieces = values.flatMap((value) => (value.includes(',') ? value.split(',').map((piece) => piece.trim()) : [value.trim()]));
  // Only worked-out signatures are remembered: a value of a signature's length beside a head may be the POS's own id, and a remembered one would go from every output.
  return headSignatures(pieces, keys).signatures;
}
