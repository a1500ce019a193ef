/** Pure: where secrets are in a plain text: the partner's key in any case, the signature of any JWT by its shape, a seen signature alone in any encoding, and any of these inside a blob of base64, hex or base32, gzip or zlib compressed or not. */
import { constants, gunzipSync, inflateSync } from 'node:zlib';
import { base32Bytes } from './base32.js';
import { markersOf, MIN_SECRET_LENGTH } from './key-markers.js';

export interface Secrets {
  /** The key and the forms a client may send it in; searched ignoring letter case. */
  keys: readonly string[];
  /** The signatures of the tokens seen, as base64url. */
  signatures: ReadonlySet<string>;
}

export { MIN_SECRET_LENGTH } from './key-markers.js';
/** Signatures shorter than this are not remembered, nor searched for. */
export const SHORTEST_SIGNATURE = 16;

/** One character class, so each position is read once: `X+(\.X*)+` backtracks quadratically over a long run without a dot. */
const DOTTED_RUN = /[A-Za-z0-9_.+/=-]+/g;
/** Runs of base64 (either alphabet, padded) or hex: where a signature stands alone, or a secret is encoded. */
const ENCODED_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+=*$/;
const HEX_RUN = /[0-9A-Fa-f]{32,}/g;
/** Shorter text cannot hold a JWT signature: a 4-character part that decodes to JSON, a dot, 16 characters. */
const SHORTEST_SIGNED = 21;

/** By exec from lastIndex 0: matchAll clones the pattern at each call. */
function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  // Set before each exec: the caller may use the same pattern in between.
  let from = 0;
  for (;;) {
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    if (match === null) return;
    // A pattern that can match nothing would stay put for ever.
    from = match[0].length === 0 ? match.index + 1 : pattern.lastIndex;
    yield match;
  }
}

const patterns = new Map<string, RegExp>();

/** A secret found whatever its letter case (a header name or an error message may have changed it). */
function patternOf(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (pattern === undefined) {
    pattern = new RegExp(secret.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
    if (patterns.size > 100) patterns.clear();
    patterns.set(secret, pattern);
  }
  return pattern;
}

/** The spans [start, end) of `text` that hold a secret, in any order, perhaps overlapping. */
export function secretSpans(text: string, secrets: Secrets, blobs = true): Array<[number, number]> {
  const spans = keySpans(text, secrets.keys);
  // Searched with the key masked (same length), so a signature glued to the key is a run of its own.
  const rest = spans.length === 0 ? text : masked(text, spans);
  if (rest.length >= SHORTEST_SIGNED && rest.includes('.')) jwtSignatureSpans(rest, spans);
  if (rest.length >= SHORTEST_SIGNATURE && (secrets.signatures.size > 0 || blobs)) encodedRunSpans(rest, secrets, blobs, spans);
  return spans;
}

/** The spans of the key in `text`, in any letter case. */
export function keySpans(text: string, keys: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  // Each search is skipped when the text is too short to hold the key: most strings of a body are.
  for (const key of keys) {
    if (key.length < MIN_SECRET_LENGTH || key.length > text.length) continue;
    for (const match of matches(patternOf(key), text)) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** `text` with each span blanked out (spaces), in one pass: a body may hold the key thousands of times. */
function masked(text: string, spans: ReadonlyArray<[number, number]>): string {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    parts.push(text.slice(at, from), ' '.repeat(end - from));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** The spans of every JWT signature in `text`, found by the shape of the parts before it. */
function jwtSignatureSpans(text: string, spans: Array<[number, number]>): void {
  for (const match of matches(DOTTED_RUN, text)) {
    const run = match[0];
    if (!run.includes('.')) continue;
    const parts = run.split('.');
    const json = parts.map(looksLikeJson);
    let offset = match.index;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i > 0 && part.length >= 16) {
        const afterClaims = json[i - 1] === true && json[i] === false;
        const afterHeaderAndClaims = i >= 2 && json[i - 2] === true && json[i - 1] === true;
        // A detached JWS (RFC 7515 appendix F) leaves the payload out: header..signature.
        const detached = i >= 2 && json[i - 2] === true && parts[i - 1] === '';
        if (afterClaims || afterHeaderAndClaims || detached) {
          // The signature itself: what follows it in the run (a path's next segment, a parameter) stays.
          const length = /^[A-Za-z0-9_+/-]+=*/.exec(part)?.[0].length ?? part.length;
          spans.push([offset, offset + length]);
          json[i] = false;
        }
      }
      offset += part.length + 1;
    }
  }
}

/** Does a base64 part decode to the start of a JSON object or array (a BOM and spaces allowed first)? A prefix glued on (`t=`, `tok_`, a path) is looked past. */
export function looksLikeJson(part: string): boolean {
  if (part.length < 4) return false;
  if (startsJson(part)) return true;
  const glued = Math.max(part.lastIndexOf('='), part.lastIndexOf('/'), part.lastIndexOf('+'));
  return glued >= 0 && glued < part.length - 4 && startsJson(part.slice(glued + 1));
}

function startsJson(part: string): boolean {
  // Node's base64 decoder reads both alphabets.
  const start = Buffer.from(part.slice(0, 24), 'base64').toString('latin1').replace(/^(\xef\xbb\xbf)?\s*/, '');
  return /^(\{\s*["}]|\[\s*["{[\]\d-])/.test(start);
}

/** The runs that are a seen signature or, with `blobs`, hold a secret once decoded; one pass, since every summary string passes here. */
function encodedRunSpans(text: string, secrets: Secrets, blobs: boolean, spans: Array<[number, number]>): void {
  const { signatures } = secrets;
  // An exec loop, not a generator, which costs more than the search on this path.
  for (let from = 0; ; ) {
    ENCODED_RUN.lastIndex = from;
    const match = ENCODED_RUN.exec(text);
    if (match === null) return;
    from = ENCODED_RUN.lastIndex;
    const run = match[0];
    const at = match.index;
    // The whole run as sent: base32 pads with up to six `=`, more than a run of base64 takes.
    const end = BASE32.test(run) ? at + run.length + (/^=*/.exec(text.slice(at + run.length, at + run.length + 6))?.[0].length ?? 0) : at + run.length;
    if (signatures.size > 0) {
      if (BASE64URL.test(run) ? signatures.has(run) : BASE64.test(run) && signatures.has(run.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_'))) {
        spans.push([at, end]);
        continue;
      }
    }
    // A run of base64's alphabet takes in a path's slashes (`/orders/<signature>/resend`): each segment is a seen signature or not.
    if (signatures.size > 0 && run.includes('/') && seenSegments(run, at, signatures, spans)) continue;
    if (signatures.size > 0 && run.length >= 52 && run.length <= 56 && BASE32.test(run) && signatures.has(base32Bytes(run).toString('base64url'))) {
      spans.push([at, end]);
      continue;
    }
    if (run.length < 32) {
      if (blobs && run.length >= 20 && holdsSecret(run, secrets, 'base64')) spans.push([at, end]);
      continue;
    }
    // A hex run may sit inside a longer run (`0x…`, `sig` then hex): each is judged on its own.
    let found = false;
    for (const hex of matches(HEX_RUN, run)) {
      const whole = hex[0].length % 2 === 0 && signatures.has(Buffer.from(hex[0], 'hex').toString('base64url'));
      if (whole || (blobs && holdsSecret(hex[0], secrets, 'hex'))) {
        spans.push([at + hex.index, at + hex.index + hex[0].length]);
        found = true;
      }
    }
    if (found || !blobs) continue;
    if (holdsSecret(run, secrets, 'base64')) spans.push([at, end]);
    // A path's segments are blobs of their own (`/refund/<base64 of gzip>`): each is judged alone.
    else if (run.includes('/')) blobSegments(text, run, at, secrets, spans);
  }
}

function blobSegments(text: string, run: string, at: number, secrets: Secrets, spans: Array<[number, number]>): void {
  for (const [segment, start] of segmentsOf(run, at)) {
    // A compressed blob in standard base64 has slashes of its own (sent as %2F in a path): from its first bytes on, the rest of the run is that blob.
    if (start > at && COMPRESSED.test(Buffer.from(segment.slice(0, 4), 'base64').toString('hex')) && holdsSecret(run.slice(start - at), secrets, 'base64')) {
      spans.push([start, at + run.length]);
      return;
    }
    if (segment.length >= 20 && holdsSecret(segment, secrets, 'base64')) {
      // With all its padding, which base32 has more of than a run takes in.
      const end = start + segment.length;
      spans.push([start, end + (/^=*/.exec(text.slice(end, end + 6))?.[0].length ?? 0)]);
    }
  }
}

/** Adds the span of each `/`-separated segment of `run` (at `at`) that is a seen signature; answers whether there was one. */
function seenSegments(run: string, at: number, signatures: ReadonlySet<string>, spans: Array<[number, number]>): boolean {
  let found = false;
  for (const [segment, start] of segmentsOf(run, at)) {
    if (segment.length >= SHORTEST_SIGNATURE && signatures.has(segment.replace(/=+$/, ''))) {
      spans.push([start, start + segment.length]);
      found = true;
    }
  }
  return found;
}

/** The `/`-separated segments of `run`, each with where it starts in the text (`run` starts at `at`). */
function segmentsOf(run: string, at: number): Array<[segment: string, start: number]> {
  let start = at;
  return run.split('/').map((segment) => {
    const here = start;
    start += segment.length + 1;
    return [segment, here];
  });
}

/** A blob is decoded only when it can hold a secret: the key's markers at some alignment, or room for a JWT. */
function holdsSecret(run: string, secrets: Secrets, encoding: 'base64' | 'hex'): boolean {
  const markers = markersOf(secrets.keys);
  if (encoding === 'hex') {
    if (COMPRESSED.test(run)) return compressedHolds(Buffer.from(run.slice(0, run.length - (run.length % 2)), 'hex'), secrets);
    const keyed = markers.hex !== undefined && markers.hex.test(run);
    if (!keyed && (run.length < JWT_BLOB * 2 || run.length > LARGEST_JWT_BLOB * 2)) return false;
    return [0, 1].some((shift) => decodedHolds(Buffer.from(run.slice(shift), 'hex'), secrets));
  }
  if ((run.split('/').length - 1) * 16 > run.length) return false;
  if (COMPRESSED.test(Buffer.from(run.slice(0, 4), 'base64').toString('hex'))) return compressedHolds(Buffer.from(run, 'base64'), secrets);
  // A token's base32 has no marker to find it by: a run of base32 the size of a token is decoded.
  if (BASE32.test(run) && markers.base32?.test(run) === true && decodedHolds(base32Bytes(run), secrets)) return true;
  // Of a size to hold a token, base32 in either letter case, padded or not, is decoded.
  if (run.length >= (JWT_BLOB * 6) / 5 && run.length <= (LARGEST_JWT_BLOB * 6) / 5 && BASE32_ANY_CASE.test(run) && decodedHolds(base32Bytes(run.toUpperCase()), secrets)) return true;
  const keyed = (markers.base64 !== undefined && markers.base64.test(run)) || (markers.utf16 !== undefined && markers.utf16.test(run));
  if (!keyed && (run.length < JWT_BLOB || run.length > LARGEST_JWT_BLOB)) return false;
  return [0, 1, 2, 3].some((shift) => decodedHolds(Buffer.from(run.slice(shift), 'base64'), secrets));
}

/** The first bytes of a gzip member (1f 8b, deflate) or a zlib stream (a deflate method byte whose check bits hold), as hex. */
const COMPRESSED = /^(1f8b08|78(01|5e|9c|da))/i;
/** An inflated blob is read up to this many bytes, the body limit, and never past this many times its own size: a bomb costs its bound, not its claim. */
const INFLATED_LIMIT = 1024 * 1024;
const INFLATED_RATIO = 64;

/** Does a gzip or zlib blob hold a secret once inflated? One that inflates past its bound cannot be vouched for, and counts as holding one. */
function compressedHolds(bytes: Buffer, secrets: Secrets): boolean {
  const options = { maxOutputLength: Math.min(INFLATED_LIMIT, bytes.length * INFLATED_RATIO + 1024), finishFlush: constants.Z_SYNC_FLUSH };
  let inflated = bytes;
  try {
    // A stream compressed again (gzip of gzip) is inflated again, within the same bound.
    for (let round = 0; round < 3 && COMPRESSED.test(inflated.subarray(0, 3).toString('hex')); round++) inflated = inflated[0] === 0x1f ? gunzipSync(inflated, options) : inflateSync(inflated, options);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
  }
  return decodedHolds(inflated, secrets);
}

/** Decoded bytes that are themselves one run of base64 (a blob encoded twice) are decoded once more; further nesting is where the search stops. */
const ENCODED_AGAIN = /^[A-Za-z0-9+/_-]{20,}={0,2}$/;

/** Do decoded bytes hold a secret: as they are (latin1), with NULs and invisible characters dropped (UTF-16 text), or decoded again? */
function decodedHolds(bytes: Buffer, secrets: Secrets): boolean {
  const text = bytes.toString('latin1');
  if (secretSpans(text, secrets, false).length > 0) return true;
  const stripped = text.replaceAll('\u0000', '');
  if (stripped !== text && secretSpans(stripped, secrets, false).length > 0) return true;
  const again = text.trim();
  return ENCODED_AGAIN.test(again) && [0, 1, 2, 3].some((shift) => secretSpans(Buffer.from(again.slice(shift), 'base64').toString('latin1'), secrets, false).length > 0);
}

/** A run of base32 (RFC 4648: capitals and 2–7, padded with =). */
const BASE32 = /^[A-Z2-7]{16,}=*$/;
const BASE32_ANY_CASE = /^[A-Za-z2-7]{16,}=*$/;

/** The base64 of the shortest JWT the sandbox would see is about this long: a blob shorter than it holds none. */
const JWT_BLOB = 128;
/** A longer blob is decoded only with the key's markers in it: decoding every long run cost each rendered entry. */
const LARGEST_JWT_BLOB = 4096;
