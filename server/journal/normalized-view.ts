/**
 * Pure: text as the redaction searches it. A secret can travel encoded: a `-` written `\u002d` in a body that is not
 * JSON, a `.` as `%2E` or `&#46;`, a zero-width character inside the key, the NUL bytes of a UTF-16 body read as
 * UTF-8, parameters that split a key in two. A view decodes all that, and remembers for each character it holds the
 * span of the original it stands for, so a secret found in the view is replaced in the text as it was sent.
 */

/** A view of a text: what is searched, and for each of its characters the original span [start, end) behind it. */
export interface View {
  text: string;
  start: readonly number[];
  end: readonly number[];
  /** Where the view joined two separate values (a parameter's separator taken out): a span found across is redacted on each side. */
  breaks?: ReadonlySet<number>;
}

/** Characters that hide inside a secret without showing: dropped from the view. NUL: UTF-16 read as UTF-8. */
const INVISIBLE = new Set(['\u0000', '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']);
/** Does a text hold anything a view would decode? Most text does not, and is searched as it is. */
// eslint-disable-next-line no-control-regex -- NUL is among what a view decodes (UTF-16 read as UTF-8)
const ENCODED = /[\u0000\u00ad\u200b-\u200d\u2060\ufeff%&\\]/;
const NAMED_ENTITIES: Record<string, string> = {
  period: '.',
  hyphen: '-',
  dash: '-',
  lowbar: '_',
  sol: '/',
  plus: '+',
  equals: '=',
  amp: '&',
  quot: '"',
  apos: "'",
  colon: ':',
  lt: '<',
  gt: '>',
};
const JSON_ESCAPES: Record<string, string> = { '/': '/', '\\': '\\', '"': '"', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
/** Up to this many rounds of decoding: a value encoded twice (`%252E`, `&amp;#46;`) needs two. */
const ROUNDS = 3;

/** The view of `text` with every encoding above decoded, or undefined when there is nothing to decode. */
export function decodedView(text: string): View | undefined {
  if (!ENCODED.test(text)) return undefined;
  let view = identity(text);
  for (let round = 0; round < ROUNDS; round++) {
    const next = decodeOnce(view);
    if (next.text === view.text) break;
    view = next;
    if (!ENCODED.test(view.text)) break;
  }
  return view.text === text ? undefined : view;
}

/** Query-string separators (`&name=`, `;name=`, `?name=`) between parameter values. */
const PARAMETER_SEPARATOR = /[?&;][A-Za-z0-9_.~[\]-]{0,64}=/g;

/**
 * `view` with the separators of query parameters taken out (`glue` put in their place), so a secret split across
 * two parameters is whole again; undefined when there are none.
 */
export function joinedView(view: View, glue: '' | '.'): View | undefined {
  if (!/[?&;]/.test(view.text)) return undefined;
  const text: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const breaks = new Set<number>();
  let at = 0;
  let found = false;
  for (const match of view.text.matchAll(PARAMETER_SEPARATOR)) {
    // The first parameter's own name is not between two values.
    if (match.index === 0 && view.text[0] === '?') continue;
    found = true;
    copy(view, at, match.index, text, start, end);
    breaks.add(text.length);
    if (glue !== '' && match.index > 0) {
      text.push(glue);
      start.push(view.start[match.index]!);
      end.push(view.end[match.index + match[0].length - 1]!);
    }
    at = match.index + match[0].length;
  }
  if (!found) return undefined;
  copy(view, at, view.text.length, text, start, end);
  return { text: text.join(''), start, end, breaks };
}

/**
 * The original spans behind the view's span [from, to): one, unless the view left something out in between (the
 * separator of two parameters), which stays as it was.
 */
export function originalSpans(view: View | undefined, from: number, to: number): Array<[number, number]> {
  if (view === undefined) return [[from, to]];
  const spans: Array<[number, number]> = [];
  for (let i = from; i < to; i++) {
    const last = spans.at(-1);
    // Characters the view dropped (a zero-width one, a NUL) between two it kept are part of the secret's span.
    if (last !== undefined && !view.breaks?.has(i)) last[1] = Math.max(last[1], view.end[i]!);
    else if (view.start[i]! < view.end[i]!) spans.push([view.start[i]!, view.end[i]!]);
  }
  return spans;
}

function identity(text: string): View {
  const start = new Array<number>(text.length);
  const end = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  return { text, start, end };
}

function copy(view: View, from: number, to: number, text: string[], start: number[], end: number[]): void {
  for (let i = from; i < to; i++) {
    text.push(view.text[i]!);
    start.push(view.start[i]!);
    end.push(view.end[i]!);
  }
}

/** One round: each encoded character of `view` decoded, each invisible one dropped; the spans carried through. */
function decodeOnce(view: View): View {
  const source = view.text;
  const text: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const emit = (chars: string, from: number, to: number) => {
    for (const char of chars) {
      // A character astral in UTF-16 is two units: each gets the span, so the view's indexes stay its string's.
      for (let unit = 0; unit < char.length; unit++) {
        text.push(char[unit]!);
        start.push(view.start[from]!);
        end.push(view.end[to - 1]!);
      }
    }
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (INVISIBLE.has(char)) {
      i++;
      continue;
    }
    const decoded = char === '\\' ? jsonEscape(source, i) : char === '&' ? htmlEntity(source, i) : char === '%' ? percentRun(source, i) : undefined;
    if (decoded === undefined) {
      emit(char, i, i + 1);
      i++;
      continue;
    }
    emit(decoded.text, i, i + decoded.length);
    i += decoded.length;
  }
  return { text: text.join(''), start, end };
}

function jsonEscape(source: string, at: number): { text: string; length: number } | undefined {
  const next = source[at + 1];
  if (next === undefined) return undefined;
  if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(source.slice(at + 2, at + 6))) return { text: String.fromCharCode(parseInt(source.slice(at + 2, at + 6), 16)), length: 6 };
  const plain = JSON_ESCAPES[next];
  return plain === undefined ? undefined : { text: plain, length: 2 };
}

function htmlEntity(source: string, at: number): { text: string; length: number } | undefined {
  const match = /^&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]{2,8}));?/.exec(source.slice(at, at + 12));
  if (match === null) return undefined;
  // A named one needs its semicolon (`&amp=` in a query is a parameter, not an entity).
  if (match[3] !== undefined && !match[0].endsWith(';')) return undefined;
  const code = match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? parseInt(match[2], 16) : undefined;
  if (code !== undefined) return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? undefined : { text: String.fromCodePoint(code), length: match[0].length };
  const named = NAMED_ENTITIES[match[3]!.toLowerCase()];
  return named === undefined ? undefined : { text: named, length: match[0].length };
}

function percentRun(source: string, at: number): { text: string; length: number } | undefined {
  const byteAt = (offset: number) => (/^%[0-9A-Fa-f]{2}$/.test(source.slice(offset, offset + 3)) ? parseInt(source.slice(offset + 1, offset + 3), 16) : undefined);
  const first = byteAt(at);
  if (first === undefined) return undefined;
  if (first < 0x80) return { text: String.fromCharCode(first), length: 3 };
  // The bytes of one character in UTF-8, decoded together; bytes that are no UTF-8 are left as they are.
  let length = 3;
  while ((byteAt(at + length) ?? 0) >= 0x80) length += 3;
  try {
    return { text: decodeURIComponent(source.slice(at, at + length)), length };
  } catch {
    return undefined;
  }
}
