/**
 * Properties of the §5 token check: junk and oddly-built tokens never throw in the parser, never pass the HTTP
 * stage, and are refused 401 in the lowercase envelope; a token signed with the partner's key is accepted only when
 * its header and claims meet §5 (RFC 7515 crit included); valid tokens with harmless variations are accepted.
 */
import { createSecretKey } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { checkAuthorizationHeader } from '../../tokens/pos-token-rules.js';
import { viewToken } from '../../journal/journal-entry.js';
import { EXTERNAL_ID, NOW_S, PARTNER } from '../helpers.js';
import { startFuzzTarget, sendAndCheck, TEST_CONTEXT, type FuzzTarget } from './in-process-target.js';
import { posCase } from './pos-cases.js';
import { assertProperty, PROPERTY_TIMEOUT_MS } from './run-property.js';
import { authorizationValue, junkToken, oddAlgToken, signedOddToken, timeClaimToken, tokenRuleBreach, validToken, type BuiltToken } from './token-cases.js';

const CHECK_CONTEXT = { key: createSecretKey(Buffer.from(PARTNER.nonProdKey, 'utf8')), posName: PARTNER.name, nowSeconds: NOW_S };
const anyToken = fc.oneof(junkToken, signedOddToken(TEST_CONTEXT, true), signedOddToken(TEST_CONTEXT, false), validToken(TEST_CONTEXT));
/** Tokens whose alg is the string HS256 or junk: what the parser must judge by §5 once alg cannot trip it. */
const stringAlgToken = fc.oneof(junkToken, signedOddToken(TEST_CONTEXT, false), validToken(TEST_CONTEXT));
const inHeader = (tokens: fc.Arbitrary<BuiltToken>) => tokens.chain((token) => authorizationValue(token.token).map((value) => ({ token, value })));
const REFUND = Buffer.from(JSON.stringify({ ExternalId: EXTERNAL_ID }));

/** A refund that is valid in every way but its Authorization header. */
const refundWith = (authorization: string, token: BuiltToken) =>
  posCase(TEST_CONTEXT, 'refund', {
    token: token.token,
    body: REFUND,
    kind: token.signed ? 'token: signed, odd header or claims' : 'token: junk',
    headers: [['Authorization', authorization]],
  });

describe('the §5 token parser (property)', () => {
  it('never throws on any Authorization value: junk, odd alg, odd header, odd claims', async () => {
    await assertProperty(
      fc.property(inHeader(anyToken), ({ value }) => {
        viewToken(value);
        checkAuthorizationHeader(value, CHECK_CONTEXT);
      }),
      1000,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('never throws on nbf and exp of any number (huge, negative, fractional), and judges them by §5', async () => {
    await assertProperty(
      fc.property(timeClaimToken(TEST_CONTEXT), (token) => {
        const check = checkAuthorizationHeader(`Bearer ${token.token}`, CHECK_CONTEXT);
        expect(check.ok).toBe(tokenRuleBreach(token, TEST_CONTEXT) === undefined);
      }),
      1000,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('accepts only what §5 accepts, and names every defect of what it refuses', async () => {
    await assertProperty(
      fc.property(inHeader(stringAlgToken), ({ token, value }) => {
        const check = checkAuthorizationHeader(value, CHECK_CONTEXT);
        if (check.ok) {
          expect(/^bearer\s/i.test(value.trim())).toBe(true);
          expect(tokenRuleBreach(token, TEST_CONTEXT)).toBeUndefined();
        } else {
          expect(check.defects.length).toBeGreaterThan(0);
          for (const defect of check.defects) expect(defect.message.trim()).not.toBe('');
        }
      }),
      1000,
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('the §5 token check over HTTP (property)', () => {
  let target: FuzzTarget;
  beforeEach(async () => {
    target = await startFuzzTarget();
  });
  afterEach(async () => {
    await target.close();
  });

  it('refuses junk tokens with 401 in the lowercase envelope and changes nothing', async () => {
    const cases = inHeader(junkToken).map(({ token, value }) => refundWith(value, token));
    await assertProperty(
      fc.asyncProperty(cases, async (wire) => {
        const sent = await sendAndCheck(target, wire);
        expect(sent.ok && sent.answer.status).toBe(401);
      }),
      100,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('refuses a token signed with the partner key whose alg is not the string HS256: 401, never a 5xx', async () => {
    await assertProperty(
      fc.asyncProperty(oddAlgToken(TEST_CONTEXT), async (token) => {
        const sent = await sendAndCheck(target, refundWith(`Bearer ${token.token}`, token));
        // Only alg is judged here: crit and the claims have properties of their own.
        if (tokenRuleBreach(token, TEST_CONTEXT)?.startsWith('alg ')) expect(sent.ok && sent.answer.status).toBe(401);
      }),
      100,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('accepts a token signed with the partner key only when its header (crit, kid, typ, extras) and claims meet §5', async () => {
    await assertProperty(
      fc.asyncProperty(signedOddToken(TEST_CONTEXT, false), async (token) => {
        const sent = await sendAndCheck(target, refundWith(`Bearer ${token.token}`, token));
        const breach = tokenRuleBreach(token, TEST_CONTEXT);
        if (sent.ok && sent.answer.status < 300 && breach !== undefined) {
          throw new Error(`accepted with ${sent.answer.status} although ${breach}\nheader: ${token.headerText}\nclaims: ${token.payloadText}`);
        }
        if (sent.ok && sent.answer.status === 401 && breach === undefined) {
          throw new Error(`refused 401 although the token meets §5: ${sent.answer.body}\nheader: ${token.headerText}\nclaims: ${token.payloadText}`);
        }
      }),
      200,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('judges nbf and exp of any number by §5 over HTTP: 200 or 401, never a 5xx', async () => {
    await assertProperty(
      fc.asyncProperty(timeClaimToken(TEST_CONTEXT), async (token) => {
        const sent = await sendAndCheck(target, refundWith(`Bearer ${token.token}`, token), { checkState: false });
        expect(sent.ok && sent.answer.status).toBe(tokenRuleBreach(token, TEST_CONTEXT) === undefined ? 200 : 401);
      }),
      100,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('accepts valid tokens with harmless variations (typ or not, a kid, extra claims, any claim order): 200', async () => {
    await assertProperty(
      fc.asyncProperty(validToken(TEST_CONTEXT, 'loc-std-001'), async (token) => {
        const sent = await sendAndCheck(target, refundWith(`Bearer ${token.token}`, token), { checkState: false });
        expect(sent.ok && sent.answer.status).toBe(200);
      }),
      50,
    );
  }, PROPERTY_TIMEOUT_MS);
});
