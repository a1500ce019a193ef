import { describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import { checkServiceToken, SERVICE_ISSUER } from './service-token-check.js';

const KEY = 'k'.repeat(40);
const NOW = 1_800_000_000;
const claims = (overrides: Record<string, unknown> = {}) => ({ sub: 'loc-1', jti: 'j', nbf: NOW, exp: NOW + 300, iss: SERVICE_ISSUER, aud: 'demo-pos', ...overrides });
const bearer = (payload: object, key = KEY, algorithm: jwt.Algorithm = 'HS256') => `Bearer ${jwt.sign(payload, key, { algorithm, noTimestamp: true })}`;
const context = { key: KEY, posName: 'demo-pos', locationId: 'loc-1', nowSeconds: NOW };

describe('checkServiceToken', () => {
  it('accepts a service → POS token signed with the partner key', () => {
    expect(checkServiceToken(bearer(claims()), context)).toEqual({ ok: true, claims: claims() });
  });

  it.each([
    ['a bad signature', bearer(claims(), 'another-key-another-key-another-key'), 'token rejected: invalid signature'],
    ['an expired token', bearer(claims({ nbf: NOW - 900, exp: NOW - 120 })), 'token rejected: jwt expired'],
    ['the wrong audience', bearer(claims({ aud: 'io.service.pos.brokers.openapi' })), 'token rejected: jwt audience invalid. expected: demo-pos'],
    ['the wrong issuer', bearer(claims({ iss: 'demo-pos' })), `token rejected: jwt issuer invalid. expected: ${SERVICE_ISSUER}`],
    ['HS512', bearer(claims(), KEY, 'HS512'), 'token rejected: invalid algorithm'],
    ['no jti', bearer(claims({ jti: undefined })), 'token has no jti'],
    ['a sub that is not the location header', bearer(claims({ sub: 'loc-2' })), "token sub 'loc-2' is not the x-service-locationid 'loc-1'"],
    ['no token', undefined, 'Authorization: Bearer <JWT> is missing'],
  ])('rejects %s', (_case, authorization, reason) => {
    expect(checkServiceToken(authorization, context)).toEqual({ ok: false, reason });
  });

  it('skips only the signature with the accept-bad-signature bug', () => {
    const forged = 'another-key-another-key-another-key';
    expect(checkServiceToken(bearer(claims(), forged), { ...context, skipSignature: true }).ok).toBe(true);
    expect(checkServiceToken(bearer(claims({ exp: NOW - 120 }), forged), { ...context, skipSignature: true })).toEqual({ ok: false, reason: 'token rejected: jwt expired' });
  });

  it('skips only exp with the accept-expired-token bug, and only aud with accept-wrong-audience', () => {
    expect(checkServiceToken(bearer(claims({ nbf: NOW - 900, exp: NOW - 120 })), { ...context, ignoreExpiry: true }).ok).toBe(true);
    expect(checkServiceToken(bearer(claims({ aud: 'another-pos' })), { ...context, ignoreAudience: true }).ok).toBe(true);
    expect(checkServiceToken(bearer(claims({ aud: 'another-pos' })), { ...context, ignoreExpiry: true }).ok).toBe(false);
  });
});
