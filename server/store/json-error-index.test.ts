import { describe, expect, it } from '@jest/globals';
import { jsonErrorIndex } from './json-error-index.js';

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
