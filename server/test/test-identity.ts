/**
 * What a test needs to speak as the fixtures' partner (its identity, tokens built claim by claim, the envelopes),
 * without the sandbox: unit tests import this, not helpers.ts, so they load no Express, no supertest and no
 * sandbox (about a quarter of a second of each file's start).
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { resolvePartner } from '../config.js';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { PACKAGE_ROOT } from '../version.js';

export const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures');
export const fixtures = loadFixtures(FIXTURES_DIR);
export const PARTNER = resolvePartner(fixtures.partner, {});
/** The sandbox's clock in every test: 2026-11-21T10:00:00Z. */
export const NOW_S = Date.parse('2026-11-21T10:00:00Z') / 1000;
export const LOCATION = 'loc-std-001';
export const EXTERNAL_ID = 'POS-STD-1001';

/** Signs any header and payload with HS256, without the claim checks jwt.sign would make. */
export function signHs256(header: object, payload: object, key = PARTNER.nonProdKey): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode(header)}.${encode(payload)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

let jtiCounter = 0;

/** The six §5 claims of a valid POS → service token at NOW_S. */
export function validClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: LOCATION,
    jti: `jti-${++jtiCounter}`,
    nbf: NOW_S - 10,
    exp: NOW_S + 600,
    iss: PARTNER.name,
    aud: SERVICE_AUDIENCE,
    ...overrides,
  };
}

/** A valid token, or one with claims changed (`undefined` removes a claim). */
export function posToken(overrides: Record<string, unknown> = {}, key = PARTNER.nonProdKey): string {
  const claims = Object.fromEntries(Object.entries(validClaims(overrides)).filter(([, value]) => value !== undefined));
  return signHs256({ alg: 'HS256', typ: 'JWT' }, claims, key);
}

/** The headers of a clean refund: token, location, x-api-key, version and JSON content type. */
export function cleanHeaders(token = posToken()): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    'x-service-locationid': LOCATION,
    'x-api-key': PARTNER.apiKey ?? 'key',
    'x-api-version': '2',
    'Content-Type': 'application/json',
  };
}

/** The capitalized §2.3 menu envelope, VALIDATION_ERROR unless told. */
export function menuEnvelope(messages: string[], code = 'VALIDATION_ERROR'): object {
  return { errors: messages.map((message) => ({ Code: code, Message: message })) };
}

/** The lowercase §2.3 envelope with one entry per message. */
export function orderEnvelope(code: string, ...messages: string[]): object {
  return { errors: messages.map((message) => ({ code, message })) };
}
