import { createSecretKey } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { checkPosToken } from './pos-token-rules.js';
import { mintPosToken } from './mint-pos-token.js';

const SECRET = 'unit-test-key-0123456789abcdef0123456789';
const key = createSecretKey(Buffer.from(SECRET));
const NOW = 1_800_000_000;
const check = (nbf: number, exp: number, nowSeconds = NOW) =>
  checkPosToken(mintPosToken({ posName: 'pos', key, locationId: 'loc', ttlSeconds: exp - nbf, nowSeconds: nbf }).token, {
    key,
    posName: 'pos',
    nowSeconds,
  });

describe('checkPosToken', () => {
  it('accepts what mintPosToken makes, with exactly the six §5 claims', () => {
    const minted = mintPosToken({ posName: 'pos', key: SECRET, locationId: 'loc', ttlSeconds: 300, nowSeconds: NOW, jti: 'j1' });
    const result = checkPosToken(minted.token, { key, posName: 'pos', nowSeconds: NOW });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.keys(result.token.claims).sort()).toEqual(['aud', 'exp', 'iss', 'jti', 'nbf', 'sub']);
      expect(result.token.header).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(result.token.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it.each([
    ['exp 59 s ago', NOW - 600, NOW - 59, true],
    ['exp exactly 60 s ago', NOW - 600, NOW - 60, false],
    ['nbf 60 s ahead', NOW + 60, NOW + 600, true],
    ['nbf 61 s ahead', NOW + 61, NOW + 600, false],
  ])('draws the 60 s tolerance line: %s', (_case, nbf, exp, ok) => {
    expect(check(nbf, exp).ok).toBe(ok);
  });
});
