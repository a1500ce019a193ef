import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import type { TokenPart } from '../tokens/pos-token-rules.js';
import { NOW_S, PARTNER, orderEnvelope, posToken, postRefund, signHs256, testApp, testSandbox, validClaims } from './helpers.js';

const AUD = 'io.service.pos.brokers.openapi';
const OTHER_KEY = 'another-partners-key-0123456789abcdef0123456789abcdef';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** Each row: what is wrong, the Authorization header, the one message that must name it, and the part of the token it is about. */
const DEFECTS: Array<[string, string | undefined, string, TokenPart]> = [
  ['no Authorization header', undefined, 'Authorization header is missing; send Authorization: Bearer <JWT> signed with the non-prod key (§5)', 'authorization'],
  ['a Basic scheme', 'Basic ZGVtbzpwb3M=', "Authorization header must be 'Bearer <JWT>' (§5), got scheme 'Basic'", 'authorization'],
  ['a bare token with no scheme', posToken(), "Authorization header holds a bare token; send it as 'Bearer <JWT>' (§5)", 'authorization'],
  ['Bearer and nothing after it', 'Bearer', "Authorization header is 'Bearer' with no token after it", 'authorization'],
  ['garbage', 'Bearer not-a-jwt', 'token is not a JWT: expected header.payload.signature (three base64url parts separated by dots), got 1 part(s)', 'authorization'],
  ['three parts that are not JSON', 'Bearer abc.def.ghi', 'token header is not base64url-encoded JSON: this is not a JWT', 'authorization'],
  [
    'alg none',
    `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(validClaims())).toString('base64url')}.`,
    "token alg is 'none' (an unsigned token); only HS256 signed with the partner's non-prod key is accepted (§5)",
    'alg',
  ],
  ['HS512 with the right key', `Bearer ${jwt.sign(validClaims(), PARTNER.nonProdKey, { algorithm: 'HS512', noTimestamp: true })}`, "token alg is 'HS512'; only HS256 is accepted (§5)", 'alg'],
  [
    'RS256 signed with an RSA key',
    `Bearer ${jwt.sign(validClaims(), rsa.privateKey, { algorithm: 'RS256', noTimestamp: true })}`,
    "token alg is 'RS256'; only HS256 is accepted (§5); the non-prod key is a shared HMAC secret, not a public/private key pair",
    'alg',
  ],
  [
    'RS256 in the header, HMAC-signed with the key as if it were the public key',
    `Bearer ${signHs256({ alg: 'RS256', typ: 'JWT' }, validClaims())}`,
    "token alg is 'RS256'; only HS256 is accepted (§5); the non-prod key is a shared HMAC secret, not a public/private key pair",
    'alg',
  ],
  [
    'signed with another key',
    `Bearer ${posToken({}, OTHER_KEY)}`,
    "token signature does not verify with the non-prod key of POS 'demo-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)",
    'signature',
  ],
  [
    'expired beyond the 60 s tolerance',
    `Bearer ${posToken({ nbf: NOW_S - 700, exp: NOW_S - 61 })}`,
    "token expired at 2026-11-21T09:58:59Z, 61 s before the sandbox's clock (2026-11-21T10:00:00Z), beyond the 60 s tolerance; mint a fresh token",
    'exp',
  ],
  [
    'not valid yet beyond the 60 s tolerance',
    `Bearer ${posToken({ nbf: NOW_S + 61, exp: NOW_S + 600 })}`,
    "token is not valid yet: nbf is 2026-11-21T10:01:01Z, 61 s after the sandbox's clock (2026-11-21T10:00:00Z), beyond the 60 s tolerance; check the POS clock",
    'nbf',
  ],
  ['sub missing', `Bearer ${posToken({ sub: undefined })}`, 'token claim sub is missing (the location identifier, §5)', 'sub'],
  ['jti missing', `Bearer ${posToken({ jti: undefined })}`, 'token claim jti is missing (a unique identifier for each token, §5)', 'jti'],
  ['nbf missing', `Bearer ${posToken({ nbf: undefined })}`, 'token claim nbf is missing (not-before, seconds since the Unix epoch, §5)', 'nbf'],
  ['exp missing', `Bearer ${posToken({ exp: undefined })}`, 'token claim exp is missing (expiry, seconds since the Unix epoch, §5)', 'exp'],
  ['iss missing', `Bearer ${posToken({ iss: undefined })}`, 'token claim iss is missing (the POS name, §5)', 'iss'],
  ['aud missing', `Bearer ${posToken({ aud: undefined })}`, `token claim aud is missing ('${AUD}', §5)`, 'aud'],
  ['sub a number', `Bearer ${posToken({ sub: 1001 })}`, 'token claim sub must be a string, got number 1001', 'sub'],
  ['jti a number', `Bearer ${posToken({ jti: 7 })}`, 'token claim jti must be a string, got number 7', 'jti'],
  ['nbf a string', `Bearer ${posToken({ nbf: String(NOW_S) })}`, `token claim nbf must be an integer number of seconds since the Unix epoch, got string "${NOW_S}"`, 'nbf'],
  ['exp a fraction', `Bearer ${posToken({ exp: NOW_S + 0.5 })}`, `token claim exp must be an integer number of seconds since the Unix epoch, got number ${NOW_S + 0.5}`, 'exp'],
  ['exp in milliseconds', `Bearer ${posToken({ exp: (NOW_S + 600) * 1000 })}`, `token claim exp is ${(NOW_S + 600) * 1000}, which looks like milliseconds; §5 wants seconds since the Unix epoch`, 'exp'],
  ['iss a number', `Bearer ${posToken({ iss: 42 })}`, 'token claim iss must be a string, got number 42', 'iss'],
  ['aud an array', `Bearer ${posToken({ aud: [AUD] })}`, `token claim aud must be a string, got array ["${AUD}"]`, 'aud'],
  ['sub empty', `Bearer ${posToken({ sub: '' })}`, 'token claim sub must not be empty', 'sub'],
  ['wrong aud', `Bearer ${posToken({ aud: 'io.service.pos' })}`, `token aud is 'io.service.pos' but must be '${AUD}' for POS → service calls (§5)`, 'aud'],
  [
    'aud of the other direction',
    `Bearer ${posToken({ aud: 'demo-pos' })}`,
    `token aud is 'demo-pos' but must be '${AUD}' for POS → service calls (§5) (that is the service → POS direction)`,
    'aud',
  ],
  ['wrong iss', `Bearer ${posToken({ iss: 'other-pos' })}`, "token iss is 'other-pos' but must be the POS name 'demo-pos' (§5)", 'iss'],
  [
    'exp not after nbf',
    `Bearer ${posToken({ nbf: NOW_S, exp: NOW_S })}`,
    'token exp (2026-11-21T10:00:00Z) is not after nbf (2026-11-21T10:00:00Z): the token is never valid',
    'exp',
  ],
];

describe('POST /order/refund authentication (§5)', () => {
  it.each(DEFECTS)('answers 401 UNAUTHORIZED naming the defect: %s', async (_defect, authorization, message, part) => {
    const sandbox = await testSandbox();
    const response = await postRefund(sandbox.app, { headers: { Authorization: authorization } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(orderEnvelope('UNAUTHORIZED', message));
    // The journal says which part of the token each defect is about, and keeps what the refused call carried.
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.tokenDefects).toEqual([{ part, message }]);
    expect(entry.request.body).toEqual({ ExternalId: 'POS-STD-1001' });
  });

  it('lists every claim defect of one token, one error each', async () => {
    const token = posToken({ jti: undefined, iss: 'other-pos', exp: 'soon' });
    const response = await postRefund(testApp(), { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      orderEnvelope(
        'UNAUTHORIZED',
        'token claim jti is missing (a unique identifier for each token, §5)',
        'token claim exp must be an integer number of seconds since the Unix epoch, got string "soon"',
        "token iss is 'other-pos' but must be the POS name 'demo-pos' (§5)",
      ),
    );
  });

  it.each([
    ['api_key', PARTNER.nonProdKey],
    ['token', posToken()],
    ['apiKey', 'anything'],
    ['q', PARTNER.nonProdKey],
    ['access_token', 'x'],
  ])('answers 401 when the query parameter %s carries a key or token, even with a valid header', async (name, value) => {
    const response = await postRefund(testApp(), { path: `/v2/order/refund?${name}=${encodeURIComponent(value)}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      orderEnvelope(
        'UNAUTHORIZED',
        `a key or token was passed in the query parameter '${name}'; v2 takes the token only in the Authorization header (Bearer <JWT>), never in the URL, where proxies and logs keep it (§5)`,
      ),
    );
  });

  it('accepts an innocent query parameter', async () => {
    const response = await postRefund(testApp(), { path: '/v2/order/refund?debug=1' });
    expect(response.status).toBe(200);
  });

  it.each([
    ['expired 59 s ago', { nbf: NOW_S - 600, exp: NOW_S - 59 }],
    ['valid from 60 s from now', { nbf: NOW_S + 60, exp: NOW_S + 600 }],
    ['with a lowercase bearer scheme', {}],
  ])('accepts a token within the 60 s tolerance: %s', async (_case, claims) => {
    const response = await postRefund(testApp(), { headers: { Authorization: `bearer ${posToken(claims)}` } });
    expect(response.status).toBe(200);
  });

  it('checks auth before the location header and the body', async () => {
    const response = await postRefund(testApp(), { headers: { Authorization: undefined, 'x-service-locationid': undefined }, body: '{' });
    expect(response.status).toBe(401);
    expect(response.body.errors).toHaveLength(1);
  });

  it('answers 401, not 413, to a bad token over a body above 1 MiB, which it reads but does not keep whole', async () => {
    const sandbox = await testSandbox();
    const body = JSON.stringify({ ExternalId: 'x'.repeat(1024 * 1024) });
    const response = await postRefund(sandbox.app, { headers: { Authorization: undefined }, body });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(orderEnvelope('UNAUTHORIZED', DEFECTS[0]![2]));
    const valid = await postRefund(sandbox.app, { body });
    expect(valid.status).toBe(413);
    expect(valid.body.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts the key of SANDBOX_NONPROD_KEY and the name of SANDBOX_PARTNER when they replace the fixture partner', async () => {
    const app = await testApp({ partner: { name: 'acme-pos', nonProdKey: OTHER_KEY, apiKey: undefined } });
    const good = await postRefund(app, { headers: { Authorization: `Bearer ${posToken({ iss: 'acme-pos' }, OTHER_KEY)}` } });
    expect(good.status).toBe(200);
    const fixtureKey = await postRefund(app, { headers: { Authorization: `Bearer ${posToken({ iss: 'acme-pos' })}` } });
    expect(fixtureKey.status).toBe(401);
  });
});
