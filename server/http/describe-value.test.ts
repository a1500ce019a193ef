import { describe, expect, it } from '@jest/globals';
import { describeValue } from './describe-value.js';

describe('describeValue', () => {
  it.each([
    [null, 'null'],
    ['x', 'string "x"'],
    [Number.POSITIVE_INFINITY, 'number Infinity'],
    [Number.NEGATIVE_INFINITY, 'number -Infinity'],
    [{ toString: 'HS256' }, 'object {"toString":"HS256"}'],
    [[1, 2], 'array [1,2]'],
    ['y'.repeat(50), 'string'],
  ])('%p is %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('describes a value too deep to print by its type', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(describeValue(deep)).toBe('array');
  });
});
