import { describe, expect, it } from '@jest/globals';
import { jsonDepth } from './json-text.js';

describe('jsonDepth', () => {
  it.each([
    ['"text"', 0],
    ['42', 0],
    ['{}', 1],
    ['[[],[[]]]', 3],
    ['{"a":{"b":[1,{"c":2}]}}', 4],
    ['"[[[[[["', 0],
    ['{"a":"\\"[[[["}', 1],
    ['{"a":"\\\\"}', 1],
    ['['.repeat(20_000) + ']'.repeat(20_000), 20_000],
    ['['.repeat(5), 5],
    [']]]]{', 1],
  ])('%s nests %i levels', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it('counts the depth of a value parsed by JSON.parse the same way', () => {
    const value = { Items: [{ Modifiers: [{ Options: [{ Price: 1 }] }] }] };
    expect(jsonDepth(JSON.stringify(value))).toBe(7);
  });
});
