import { describe, expect, it } from '@jest/globals';
import { base32Bytes, base32Text } from './base32.js';

// RFC 4648, section 10: the test vectors, without their padding (base32Text writes none; base32Bytes reads both).
const VECTORS: Array<[string, string]> = [
  ['', ''],
  ['f', 'MY'],
  ['fo', 'MZXQ'],
  ['foo', 'MZXW6'],
  ['foob', 'MZXW6YQ'],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI'],
];

describe('base32', () => {
  it.each(VECTORS)('writes %p as %p, and reads it back, padded or not', (plain, encoded) => {
    expect(base32Text(Buffer.from(plain))).toBe(encoded);
    expect(base32Bytes(encoded).toString()).toBe(plain);
    expect(base32Bytes(encoded.padEnd(Math.ceil(encoded.length / 8) * 8, '=')).toString()).toBe(plain);
  });

  it('round-trips every byte value', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, n) => n));
    expect(base32Bytes(base32Text(bytes))).toEqual(bytes);
  });
});
