import { describe, expect, it } from '@jest/globals';
import { decodeJsonFile, malformedUtf8, scanMalformedUtf8, jsonErrorIndex } from './decode-json-file.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('decodeJsonFile', () => {
  it('parses a JSON file, null included', () => {
    expect(decodeJsonFile(bytes('{"a":[1,"é"]}'))).toEqual({ ok: true, value: { a: [1, 'é'] } });
    expect(decodeJsonFile(bytes('null'))).toEqual({ ok: true, value: null });
  });

  it.each([
    ['an empty file', new Uint8Array(), 'the file is empty (0 bytes)'],
    ['whitespace', bytes(' \n\n'), 'the file holds only whitespace (3 bytes)'],
    ['a cut-short file', bytes('{"schemaVersion":1,'), 'the JSON is unfinished at the end of the file (19 bytes): the file looks cut short'],
    ['a syntax error after multi-byte text', bytes('{"n":"ééé",}'), 'not valid JSON at byte offset 14 of 15'],
    ['NUL bytes', new Uint8Array(8), 'not valid JSON at byte offset 0 of 8'],
    ['a byte order mark', bytes('\uFEFF{}'), 'not valid JSON at byte offset 0 of 5 (a UTF-8 byte order mark)'],
    ['Latin-1 text', Uint8Array.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]), 'holds 1 byte that is not UTF-8 text (the first at byte offset 2), so it is not JSON'],
    ['binary garbage', Uint8Array.from([0x7b, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80]), 'holds 4 bytes that are not UTF-8 text (the first at byte offset 1), so it is not JSON'],
  ])('describes %s without quoting it', (_name, input, problem) => {
    expect(decodeJsonFile(input)).toEqual({ ok: false, problem });
  });

  it('never echoes what a broken file holds', () => {
    const secret = bytes('{"menus": SECRET-CONTENT-\u001b[31m }');
    const decoded = decodeJsonFile(secret);
    if (decoded.ok) throw new Error('decoded a broken file');
    expect(decoded.problem).toBe('not valid JSON at byte offset 10 of 32');
    for (const part of ['SECRET', '\u001b', 'menus']) expect(decoded.problem).not.toContain(part);
  });
});

describe('malformedUtf8', () => {
  it.each([
    ['overlong forms', [0xc0, 0xaf, 0xe0, 0x80, 0xaf], { count: 5, first: 0 }],
    ['a UTF-16 surrogate', [0x41, 0xed, 0xa0, 0x80], { count: 3, first: 1 }],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], { count: 4, first: 0 }],
    ['a sequence cut at the end', [0x41, 0xe2, 0x82], { count: 2, first: 1 }],
  ])('counts %s', (_name, input, expected) => {
    expect(malformedUtf8(Uint8Array.from(input))).toEqual(expected);
  });

  it('agrees with a strict TextDecoder on random bytes', () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) % 256;
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    for (let round = 0; round < 2000; round++) {
      // Mostly high bytes, so that well-formed multi-byte sequences occur too.
      const input = Uint8Array.from({ length: 1 + (round % 12) }, () => (next() < 64 ? next() % 128 : 0x80 + (next() % 128)));
      let wellFormed = true;
      try {
        strict.decode(input);
      } catch {
        wellFormed = false;
      }
      expect({ input: [...input], wellFormed: scanMalformedUtf8(input) === undefined }).toEqual({ input: [...input], wellFormed });
      expect(malformedUtf8(input)).toEqual(scanMalformedUtf8(input));
    }
  });
});

/** A small seeded generator, so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const VALID = [
  '{"schemaVersion":1,"seededAt":"2026-11-21T10:00:00.000Z","menus":{"a":{"LocationId":"a","Items":[]}}}',
  '[{"id":"rf-1","n":-12.5e+3,"ok":true,"no":false,"none":null,"s":"a\\"b\\\\c\\u00e9\\n"}]',
  ' \n\t[ ] ',
  '0',
  '"é€𝄞"',
];

describe('jsonErrorIndex', () => {
  it.each(VALID)('finds no fault in valid JSON: %s', (text) => {
    expect(jsonErrorIndex(text)).toBe(-1);
  });

  it.each([
    ['{"a":}', 5],
    ['{"a":1', 6],
    ['', 0],
    ['xyz', 0],
    ['[1,2]x', 5],
    ['{"a":"\u0001"}', 6],
    ['{"schemaVersion":1,', 19],
    ['[01]', 2],
    ['[1.]', 3],
    ['[-]', 2],
    ['["\\x"]', 3],
    ['["\\u12G4"]', 6],
    ['{"a" 1}', 5],
    ['{,}', 1],
    ['[1,]', 3],
    ['[trUe]', 3],
    ['[nul', 4],
    ['{"a":1]', 6],
    ['"abc', 4],
    ['\uFEFF{}', 0],
  ])('places the fault of %j at %i', (text, index) => {
    expect(jsonErrorIndex(text)).toBe(index);
  });

  it('does not overflow on very deep nesting', () => {
    expect(jsonErrorIndex('['.repeat(200_000))).toBe(200_000);
    expect(jsonErrorIndex('['.repeat(100_000) + ']'.repeat(100_000))).toBe(-1);
  });

  it('agrees with JSON.parse on damaged copies of valid JSON, and with its position wherever it gives one', () => {
    const next = random(15);
    const noise = ['', '{', '}', '[', ']', ',', ':', '"', '\\', '-', '0', '1', '.', 'e', 'x', 't', 'n', ' ', '\u0000'];
    for (let round = 0; round < 3000; round++) {
      const base = VALID[Math.floor(next() * VALID.length)]!;
      const at = Math.floor(next() * (base.length + 1));
      const cut = next() < 0.3;
      const text = cut ? base.slice(0, at) : base.slice(0, at) + noise[Math.floor(next() * noise.length)]! + base.slice(at + (next() < 0.5 ? 1 : 0));
      let valid = true;
      let position: number | undefined;
      try {
        JSON.parse(text);
      } catch (error) {
        valid = false;
        const match = /at position (\d+)/.exec((error as Error).message);
        position = match ? Number(match[1]) : /end of JSON input/.test((error as Error).message) ? text.length : undefined;
      }
      const index = jsonErrorIndex(text);
      expect({ text, valid: index === -1 }).toEqual({ text, valid });
      if (position !== undefined) expect({ text, index }).toEqual({ text, index: position });
    }
  });
});
