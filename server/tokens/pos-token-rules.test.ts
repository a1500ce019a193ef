import { createSecretKey } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { checkPosToken, TokenReads } from './pos-token-rules.js';
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

describe('checkPosToken with remembered reads (TokenReads)', () => {
  const mint = (overrides: { nowSeconds?: number; ttlSeconds?: number; jti?: string; signWith?: string } = {}) =>
    mintPosToken({ posName: 'pos', key: overrides.signWith ?? SECRET, locationId: 'loc', ttlSeconds: overrides.ttlSeconds ?? 300, nowSeconds: overrides.nowSeconds ?? NOW, jti: overrides.jti }).token;

  it('judges the time again on every call: a token remembered while valid is refused once it expires', () => {
    const reads = new TokenReads();
    const token = mint({ ttlSeconds: 300 });
    expect(checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW, reads }).ok).toBe(true);
    const later = checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW + 360, reads });
    expect(later).toEqual(checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW + 360 }));
    expect(later.ok).toBe(false);
  });

  it.each([
    ['a valid token', () => mint()],
    ['one signed with another key', () => mint({ signWith: 'another-key-0123456789abcdef0123456789' })],
    ['one that is not a JWT', () => 'not.a-jwt'],
    ['an unsigned one', () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`],
    ['one expired long ago', () => mint({ nowSeconds: NOW - 86_400 })],
  ])('gives the same answer, first and second time, as a check with nothing remembered: %s', (_case, make) => {
    const reads = new TokenReads();
    const token = make();
    const fresh = checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW });
    expect(checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW, reads })).toEqual(fresh);
    expect(checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW, reads })).toEqual(fresh);
  });

  it('keeps at most its bound, forgetting the oldest, and never a token longer than its limit', () => {
    const reads = new TokenReads(3, 400);
    const tokens = ['a', 'b', 'c', 'd'].map((jti) => mint({ jti }));
    for (const token of tokens) checkPosToken(token, { key, posName: 'pos', nowSeconds: NOW, reads });
    expect(reads.size).toBe(3);
    expect(reads.get(tokens[0]!)).toBeUndefined();
    expect(reads.get(tokens[3]!)).toBeDefined();
    const long = mint({ jti: 'j'.repeat(400) });
    expect(checkPosToken(long, { key, posName: 'pos', nowSeconds: NOW, reads }).ok).toBe(true);
    expect(reads.get(long)).toBeUndefined();
  });

  it('shares a read that no call can change', () => {
    const reads = new TokenReads();
    const result = checkPosToken(mint(), { key, posName: 'pos', nowSeconds: NOW, reads });
    if (!result.ok) throw new Error('the token should pass');
    expect(() => {
      (result.token.claims as Record<string, unknown>).sub = 'another-location';
    }).toThrow(TypeError);
  });
});
