/** Pure: the escapes a secret may hide behind (JSON, C-style, HTML, percent, quoted-printable), each read at one place of a text. */

/** What an escape stands for, and its length in the source. */
export interface Decoded {
  text: string;
  length: number;
}

/** The named entities that stand for a character a secret or its separators use, or an invisible one. */
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
  shy: '\u00ad',
  zerowidthspace: '\u200b',
  zwj: '\u200d',
  zwnj: '\u200c',
  nobreak: '\u2060',
  invisibletimes: '\u2062',
  invisiblecomma: '\u2063',
  applyfunction: '\u2061',
  negativemediumspace: '\u200b',
  negativethickspace: '\u200b',
  negativethinspace: '\u200b',
  negativeverythinspace: '\u200b',
  lrm: '\u200e',
  rlm: '\u200f',
};
const JSON_ESCAPES: Record<string, string> = { '/': '/', '\\': '\\', '"': '"', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
/** A JSON escape (`\u002d`, `\/`), or a C-style byte (`\x2d`). */
export function backslashEscape(source: string, at: number): Decoded | undefined {
  const next = source[at + 1];
  if (next === undefined) return undefined;
  if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(source.slice(at + 2, at + 6))) return { text: String.fromCharCode(parseInt(source.slice(at + 2, at + 6), 16)), length: 6 };
  if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(source.slice(at + 2, at + 4))) return { text: String.fromCharCode(parseInt(source.slice(at + 2, at + 4), 16)), length: 4 };
  const plain = JSON_ESCAPES[next];
  return plain === undefined ? undefined : { text: plain, length: 2 };
}

export function htmlEntity(source: string, at: number): Decoded | undefined {
  const match = /^&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]{2,24}));?/.exec(source.slice(at, at + 30));
  if (match === null) return undefined;
  // A named one needs its semicolon (`&amp=` in a query is a parameter, not an entity).
  if (match[3] !== undefined && !match[0].endsWith(';')) return undefined;
  const code = match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? parseInt(match[2], 16) : undefined;
  if (code !== undefined) return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? undefined : { text: String.fromCodePoint(code), length: match[0].length };
  const named = NAMED_ENTITIES[match[3]!.toLowerCase()];
  return named === undefined ? undefined : { text: named, length: match[0].length };
}

export function percentRun(source: string, at: number): Decoded | undefined {
  return byteRun(source, at, '%');
}

/** Quoted-printable (`=2D`): a byte after `=`, as in a MIME body. */
export function quotedPrintable(source: string, at: number): Decoded | undefined {
  return byteRun(source, at, '=');
}

/** A byte written `<mark>XX`, or a run of them that is one character in UTF-8. */
function byteRun(source: string, at: number, mark: string): Decoded | undefined {
  const byteAt = (offset: number) => (source[offset] === mark && /^[0-9A-Fa-f]{2}$/.test(source.slice(offset + 1, offset + 3)) ? parseInt(source.slice(offset + 1, offset + 3), 16) : undefined);
  const first = byteAt(at);
  if (first === undefined) return undefined;
  if (first < 0x80) return { text: String.fromCharCode(first), length: 3 };
  // The bytes of one character in UTF-8, decoded together; bytes that are no UTF-8 are left as they are.
  const bytes: number[] = [first];
  while ((byteAt(at + bytes.length * 3) ?? 0) >= 0x80) bytes.push(byteAt(at + bytes.length * 3)!);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes)), length: bytes.length * 3 };
  } catch {
    return undefined;
  }
}
