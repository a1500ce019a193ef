import { describe, expect, it } from '@jest/globals';
import { createHmac, createSecretKey } from 'node:crypto';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { hs256SignatureMatches } from './pos-token-rules.js';

const SECRET = 'SANDBOX-ONLY-nonprod-key-for-the-signature-tests-0123456789';
const KEY = createSecretKey(Buffer.from(SECRET, 'utf8'));

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const hmac = (input: string, secret = SECRET) => createHmac('sha256', secret).update(input).digest('base64url');

/** jsonwebtoken's verdict, with the options checkPosToken gives it. */
function jsonwebtokenPasses(token: string): boolean {
  try {
    jwt.verify(token, KEY, { algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
    return true;
  } catch {
    return false;
  }
}

/** What checkPosToken has established before it asks for the signature: three parts, an HS256 header and a payload, both JSON objects. */
function reachesTheSignature(token: string): boolean {
  const parts = token.split('.');
  const object = (part: string | undefined) => {
    if (part === undefined || !/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
    try {
      const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const header = object(parts[0]);
  return parts.length === 3 && header?.alg === 'HS256' && header.crit === undefined && object(parts[1]) !== undefined;
}

describe('hs256SignatureMatches', () => {
  it('says yes to a token signed with the key, no to one signed with another', () => {
    const input = `${encode('{"alg":"HS256","typ":"JWT"}')}.${encode('{"sub":"loc-std-001"}')}`;
    expect(hs256SignatureMatches(`${input}.${hmac(input)}`, KEY)).toBe(true);
    expect(hs256SignatureMatches(`${input}.${hmac(input, 'another-key-of-the-same-length-0123456789abcdefghij')}`, KEY)).toBe(false);
  });

  it.each([
    ['no signature', () => ''],
    ['base64 padding after it', (sig: string) => `${sig}=`],
    ["base64's + and / instead of - and _", (sig: string) => sig.replaceAll('-', '+').replaceAll('_', '/')],
    ['a character more', (sig: string) => `${sig}A`],
    ['a space after it', (sig: string) => `${sig} `],
  ])('says no to a good signature with %s', (_case, change) => {
    const input = `${encode('{"alg":"HS256"}')}.${encode('{"sub":"x"}')}`;
    const changed = change(hmac(input));
    if (changed === hmac(input)) return;
    expect(hs256SignatureMatches(`${input}.${changed}`, KEY)).toBe(false);
  });

  // The shortcut must never accept what jsonwebtoken refuses, and must accept what a POS usually sends.
  it('agrees with jsonwebtoken: yes only where its verify passes, and yes for every well-signed token', () => {
    const json = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value)),
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })).map((claims) => JSON.stringify({ alg: 'HS256', ...claims })),
      fc.constantFrom('{"alg":"HS256","typ":"JWT"}', '{"alg":"HS256","kid":"é✓"}', '\uFEFF{"alg":"HS256"}', ' {"alg":"HS256"} ', '{"alg":"none"}', '{"alg":"HS512"}'),
    );
    const part = fc.oneof(json.map(encode), fc.string({ maxLength: 12 }), fc.constantFrom('', 'e30', 'e30=', 'eyJ+', 'a.b'));
    const signature = (input: string) =>
      fc.oneof(
        fc.constant(hmac(input)),
        fc.constant(hmac(input, 'a-different-key-entirely-0123456789abcdefghijklmnop')),
        fc.constant(`${hmac(input)}=`),
        fc.constant(hmac(input).slice(0, -1) + (hmac(input).endsWith('A') ? 'B' : 'A')),
        fc.string({ maxLength: 50 }),
      );
    const header = fc.oneof({ arbitrary: json.map(encode), weight: 4 }, { arbitrary: part, weight: 1 });
    const token = fc.tuple(header, part).chain(([header, payload]) => signature(`${header}.${payload}`).map((sig) => `${header}.${payload}.${sig}`));
    fc.assert(
      fc.property(token.filter(reachesTheSignature), (candidate) => {
        const shortcut = hs256SignatureMatches(candidate, KEY);
        const verified = jsonwebtokenPasses(candidate);
        if (shortcut) expect(verified).toBe(true);
        const [header, payload, sig] = candidate.split('.');
        if (verified && candidate.split('.').length === 3 && sig === hmac(`${header}.${payload}`)) expect(shortcut).toBe(true);
      }),
      { numRuns: 600 },
    );
  });
});
