/** Pure: text as the redaction searches it, decoded (escapes, encodings, invisible characters, split parameters) with a map back to the text as sent. */
import { backslashEscape, htmlEntity, percentRun, quotedPrintable } from './text-escapes.js';

/** View [at, at + length) stands for original [from, to): character by character when `copied`, else each of its characters for the whole. */
interface Piece {
  at: number;
  length: number;
  from: number;
  to: number;
  copied: boolean;
}

/** A view of a text: what is searched, and the pieces that map it back to the original. */
export interface View {
  text: string;
  pieces: readonly Piece[];
  /** Where the view joined two values: a span found across them is redacted on each side. */
  breaks?: readonly number[];
}

/** Characters that hide inside a secret without showing (Unicode's default-ignorable code points) and NUL: dropped from the view. */
// eslint-disable-next-line no-control-regex -- NUL is among what a view drops
const INVISIBLE = /[\u0000\p{Default_Ignorable_Code_Point}]/u;
/** Does a text hold anything a view would decode? Most text does not, and is searched as it is. */
// eslint-disable-next-line no-control-regex -- NUL is among what a view decodes
const ENCODED = /[\u0000\p{Default_Ignorable_Code_Point}%&\\=]/u;
/** Where decoding may start: an escape, an entity, a percent or quoted-printable byte, an invisible character. */
// eslint-disable-next-line no-control-regex -- NUL is among what a view decodes
const DECODABLE = /[\u0000\p{Default_Ignorable_Code_Point}%&\\=]/gu;
/** Up to this many rounds of decoding: a value encoded twice (`%252E`, `&amp;#46;`) needs two. */
const ROUNDS = 3;

/** The view of `text` with every encoding above decoded, or undefined when there is nothing to decode. */
export function decodedView(text: string): View | undefined {
  if (!ENCODED.test(text)) return undefined;
  let view = identityView(text);
  for (let round = 0; round < ROUNDS; round++) {
    const next = decodeOnce(view);
    if (next.text === view.text) break;
    view = next;
    if (!ENCODED.test(view.text)) break;
  }
  return view.text === text ? undefined : view;
}

/** A text as its own view. */
export function identityView(text: string): View {
  return { text, pieces: [{ at: 0, length: text.length, from: 0, to: text.length, copied: true }] };
}

/** Query-string separators (`&name=`, `;name=`, `?name=`) between parameter values. */
const PARAMETER_SEPARATOR = /[?&;][A-Za-z0-9_.~[\]-]{0,64}=/g;

/** `view` with the query parameters' separators taken out, so a secret split across two is whole again. */
export function joinedView(view: View, glue: '' | '.'): View | undefined {
  if (!/[?&;]/.test(view.text)) return undefined;
  const out = new Builder(view);
  const breaks: number[] = [];
  let at = 0;
  PARAMETER_SEPARATOR.lastIndex = 0;
  for (let match = PARAMETER_SEPARATOR.exec(view.text); match !== null; match = PARAMETER_SEPARATOR.exec(view.text)) {
    // The first parameter's own name is not between two values.
    if (match.index === 0 && view.text[0] === '?') continue;
    out.copy(at, match.index);
    breaks.push(out.length);
    if (glue !== '' && match.index > 0) out.decoded(glue, match.index, match.index + match[0].length);
    at = match.index + match[0].length;
  }
  if (breaks.length === 0) return undefined;
  out.copy(at, view.text.length);
  return { ...out.view(), breaks };
}

/** A line break inside base64 (MIME wraps at 76), matched break first: a look back at every character would cost forty times the search. */
const WRAPPED_LINE = /\r?\n(?<=[A-Za-z0-9+/=]{40}\r?\n)(?=[A-Za-z0-9+/])/g;

/** Pairs of hex with a colon or a space between them (`de:ad:be:ef`); whether a word goes on after is checked apart. */
const SEPARATED_HEX = /(?<![0-9A-Za-z])[0-9A-Fa-f]{2}(?:[ :][0-9A-Fa-f]{2}){3,}/g;

/** `view` with the separators inside blobs of base64 or hex taken out; one between a blob and a word stays. */
export function compactView(view: View): View | undefined {
  const { text } = view;
  // Cuts as [start, end, start, end, …]: a colon-separated dump has one every three characters.
  const lines: number[] = [];
  for (const match of text.matchAll(WRAPPED_LINE)) lines.push(match.index, match.index + match[0].length);
  const pairs: number[] = [];
  for (const match of text.matchAll(SEPARATED_HEX)) {
    const end = match.index + match[0].length;
    if (/[0-9A-Za-z]/.test(text[end] ?? '')) continue;
    for (let at = match.index + 2; at < end; at += 3) pairs.push(at, at + 1);
  }
  if (lines.length + pairs.length === 0) return undefined;
  const out = new Builder(view);
  let at = 0;
  // Two sorted lists, merged: a line break is never inside a hex run.
  for (let line = 0, pair = 0; line < lines.length || pair < pairs.length; ) {
    const takeLine = pair >= pairs.length || (line < lines.length && lines[line]! < pairs[pair]!);
    const cut = takeLine ? lines : pairs;
    const index = takeLine ? line : pair;
    out.copy(at, cut[index]!);
    at = cut[index + 1]!;
    if (takeLine) line += 2;
    else pair += 2;
  }
  out.copy(at, text.length);
  return out.view();
}

/** The original spans behind [from, to): one, unless the view joined two values in between. */
export function originalSpans(view: View | undefined, from: number, to: number): Array<[number, number]> {
  if (view === undefined) return [[from, to]];
  const spans: Array<[number, number]> = [];
  const breaks = view.breaks ?? [];
  let start = from;
  // The breaks inside the span, found by a search: a text of many parameters has many.
  let low = 0;
  let high = breaks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (breaks[middle]! <= from) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index <= breaks.length; index++) {
    const cut = index < breaks.length && breaks[index]! < to ? breaks[index]! : to;
    if (cut > start) spans.push([locate(view, start)[0], locate(view, cut - 1)[1]]);
    start = cut;
    if (cut === to) break;
  }
  return spans;
}

/** The index of the piece that holds the view's character `index` (the last piece that starts at or before it). */
function pieceAt(pieces: readonly Piece[], index: number): number {
  let low = 0;
  let high = pieces.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (pieces[middle]!.at <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The original span [start, end) behind the view's character `index`. */
function locate(view: View, index: number): [number, number] {
  const piece = view.pieces[pieceAt(view.pieces, index)]!;
  if (!piece.copied) return [piece.from, piece.to];
  const start = piece.from + (index - piece.at);
  return [start, start + 1];
}

/** Builds a view from another: runs of it copied, characters decoded from a span of it; the pieces mapped back to the original. */
class Builder {
  private readonly parts: string[] = [];
  private readonly pieces: Piece[] = [];
  length = 0;

  constructor(private readonly source: View) {}

  /** The source's characters [from, to), as they are. */
  copy(from: number, to: number): void {
    if (to <= from) return;
    this.parts.push(this.source.text.slice(from, to));
    // The source's own pieces over [from, to), cut to it: found by a search, then walked (a long text has many).
    const { pieces } = this.source;
    for (let index = pieceAt(pieces, from); index < pieces.length && pieces[index]!.at < to; index++) {
      const piece = pieces[index]!;
      const start = Math.max(from, piece.at);
      const end = Math.min(to, piece.at + piece.length);
      if (start >= end) continue;
      const offset = start - piece.at;
      this.pieces.push(
        piece.copied
          ? { at: this.length, length: end - start, from: piece.from + offset, to: piece.from + offset + (end - start), copied: true }
          : { at: this.length, length: end - start, from: piece.from, to: piece.to, copied: false },
      );
      this.length += end - start;
    }
  }

  /** `text`, standing for the source's characters [from, to). */
  decoded(text: string, from: number, to: number): void {
    if (text.length === 0) return;
    this.parts.push(text);
    this.pieces.push({ at: this.length, length: text.length, from: locate(this.source, from)[0], to: locate(this.source, to - 1)[1], copied: false });
    this.length += text.length;
  }

  view(): View {
    return { text: this.parts.join(''), pieces: this.pieces };
  }
}

/** One round: each encoded character of `view` decoded, each invisible one dropped; the mapping carried through. */
function decodeOnce(view: View): View {
  const source = view.text;
  const out = new Builder(view);
  let copiedTo = 0;
  DECODABLE.lastIndex = 0;
  for (let match = DECODABLE.exec(source); match !== null; match = DECODABLE.exec(source)) {
    const at = match.index;
    const char = match[0];
    if (at < copiedTo) continue;
    let decoded: { text: string; length: number } | undefined;
    if (INVISIBLE.test(char)) decoded = { text: '', length: char.length };
    else if (char === '\\') decoded = backslashEscape(source, at);
    else if (char === '&') decoded = htmlEntity(source, at);
    else if (char === '%') decoded = percentRun(source, at);
    else decoded = quotedPrintable(source, at);
    if (decoded === undefined) continue;
    out.copy(copiedTo, at);
    out.decoded(decoded.text, at, at + decoded.length);
    copiedTo = at + decoded.length;
    DECODABLE.lastIndex = copiedTo;
  }
  out.copy(copiedTo, source.length);
  return out.view();
}
