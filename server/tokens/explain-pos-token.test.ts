import { createHmac, createSecretKey } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { explainPosToken, type ExplainContext, type TokenExplanation } from './explain-pos-token.js';
import { SERVICE_AUDIENCE, checkAuthorizationHeader } from './pos-token-rules.js';

const SECRET = 'unit-test-key-0123456789abcdef0123456789';
const NOW = 1_800_000_000;
const context: ExplainContext = { key: createSecretKey(Buffer.from(SECRET)), posName: 'pos', nowSeconds: NOW, jtiUsedByAnother: () => false };

const part = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
function sign(header: unknown, claims: unknown, secret = SECRET): string {
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}
const goodClaims = { sub: 'loc-1', jti: 'j-1', nbf: NOW - 10, exp: NOW + 600, iss: 'pos', aud: SERVICE_AUDIENCE };
const verdicts = (explanation: TokenExplanation) => Object.fromEntries(explanation.rules.map((rule) => [rule.rule, rule.verdict]));

describe('explainPosToken', () => {
  it('passes every rule of a valid token, saying what it saw', () => {
    const explanation = explainPosToken(sign({ alg: 'HS256', typ: 'JWT' }, goodClaims), context);
    expect(explanation.answer).toEqual({ authenticated: true });
    expect(new Set(Object.values(verdicts(explanation)))).toEqual(new Set(['pass']));
    expect(explanation.rules.map((rule) => rule.rule)).toEqual(['format', 'alg', 'payload', 'signature', 'sub', 'jti', 'iss', 'aud', 'nbf', 'exp']);
    expect(explanation.rules.find((rule) => rule.rule === 'exp')!.details).toEqual(["exp 1800000600 (2027-01-15T08:10:00Z), 600 s after the sandbox's clock"]);
    expect(explanation.rules.find((rule) => rule.rule === 'signature')!.details).toEqual(["verifies with the non-prod key of POS 'pos'"]);
    expect(explanation.claims).toEqual(goodClaims);
    expect(explanation.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(explanation.findings).toEqual([]);
  });

  it('judges the claims too when the signature stops the API, whose 401 names the signature alone', () => {
    const token = sign({ alg: 'HS256' }, { ...goodClaims, aud: 'pos', exp: NOW - 3600 }, 'another-key');
    const explanation = explainPosToken(token, context);
    expect(explanation.answer).toEqual({
      authenticated: false,
      status: 401,
      body: {
        errors: [
          {
            code: 'UNAUTHORIZED',
            message: "token signature does not verify with the non-prod key of POS 'pos': it was signed with another key (a production key, another partner's, or a mistyped one?)",
          },
        ],
      },
    });
    expect(verdicts(explanation)).toEqual({ format: 'pass', alg: 'pass', payload: 'pass', signature: 'fail', sub: 'pass', jti: 'pass', iss: 'pass', aud: 'fail', nbf: 'pass', exp: 'fail' });
    expect(explanation.rules.find((rule) => rule.rule === 'aud')!.details).toEqual([
      `token aud is 'pos' but must be '${SERVICE_AUDIENCE}' for POS → service calls (§5) (that is the service → POS direction)`,
    ]);
  });

  it("leaves the signature of an alg 'none' token unjudged, and still judges its claims", () => {
    const explanation = explainPosToken(`${part({ alg: 'none' })}.${part({ ...goodClaims, sub: 42 })}.`, context);
    expect(verdicts(explanation)).toMatchObject({ alg: 'fail', payload: 'pass', signature: 'not-judged', sub: 'fail', iss: 'pass' });
    expect(explanation.rules.find((rule) => rule.rule === 'signature')!.details).toEqual([
      'not judged: the sandbox checks the signature only of an HS256 token with a readable payload',
    ]);
  });

  it('fails the payload of a wrong-alg token whose payload is not JSON, although the 401 names only the alg', () => {
    const explanation = explainPosToken(`${part({ alg: 'RS256' })}.${part('not json')}.sig`, context);
    expect(verdicts(explanation)).toMatchObject({ alg: 'fail', payload: 'fail', signature: 'not-judged', sub: 'not-judged' });
    expect(explanation.answer.authenticated).toBe(false);
    if (!explanation.answer.authenticated) expect(explanation.answer.body.errors).toHaveLength(1);
  });

  it.each([
    ['text that is no JWT', 'hello'],
    ['an empty paste', '   '],
    ['four parts', 'a.b.c.d'],
  ])('judges only the format of %s', (_name, pasted) => {
    const explanation = explainPosToken(pasted, context);
    expect(verdicts(explanation).format).toBe('fail');
    expect(explanation.rules.filter((rule) => rule.rule !== 'format').every((rule) => rule.verdict === 'not-judged')).toBe(true);
    expect(explanation.claims).toBeUndefined();
  });

  it('takes a whole Authorization header value as well as a bare token', () => {
    const token = sign({ alg: 'HS256' }, goodClaims);
    expect(explainPosToken(`Bearer ${token}`, context)).toEqual(explainPosToken(token, context));
    expect(explainPosToken(`  bearer   ${token} `, context).answer).toEqual({ authenticated: true });
  });

  it('names the findings an authenticated call would still get: a long lifetime, a jti another token carried', () => {
    const token = sign({ alg: 'HS256' }, { ...goodClaims, exp: NOW + 7200 });
    const explanation = explainPosToken(token, { ...context, jtiUsedByAnother: (jti) => jti === 'j-1' });
    expect(explanation.answer).toEqual({ authenticated: true });
    expect(explanation.findings.map((found) => found.code)).toEqual(['TOKEN_LIFETIME_OVER_1H', 'JTI_REUSED']);
  });

  // A token built by someone else: whatever its claims, the answer is the POS API's, and every reason the 401
  // gives is a failed rule's.
  it('answers as the POS API does, and fails a rule for every reason it gives, whatever the claims', () => {
    const claimValue = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(NOW, NOW - 3600, NOW + 86_400, 'pos', SERVICE_AUDIENCE));
    const claims = fc.record(
      { sub: claimValue, jti: claimValue, nbf: claimValue, exp: claimValue, iss: claimValue, aud: claimValue },
      { requiredKeys: [] },
    );
    const header = fc.record({ alg: fc.constantFrom('HS256', 'HS256', 'none', 'RS256', 1), crit: fc.constantFrom(undefined, ['b64']) }, { requiredKeys: ['alg'] });
    fc.assert(
      fc.property(header, claims, fc.constantFrom(SECRET, 'another'), (jose, payload, secret) => {
        const token = sign(jose, { ...goodClaims, ...payload }, secret);
        const explanation = explainPosToken(token, context);
        const api = checkAuthorizationHeader(`Bearer ${token}`, context);
        expect(explanation.answer.authenticated).toBe(api.ok);
        const failed = explanation.rules.filter((rule) => rule.verdict === 'fail').flatMap((rule) => rule.details);
        if (!api.ok) for (const defect of api.defects) expect(failed).toContain(defect.message);
        else expect(failed).toEqual([]);
      }),
    );
  });
});
