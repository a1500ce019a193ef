/** Pure: which partner a request belongs to, for the paths, tokens and headers a client may send. */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { signHs256 } from '../test/test-identity.js';
import { attributeRequest, PartnerBook, type RequestHead } from './attribute-request.js';

const book = new PartnerBook(
  [
    { name: 'alpha-pos', adminToken: 'alpha-admin-token-0001' },
    { name: 'beta-pos', adminToken: 'beta-admin-token-00001' },
  ],
  'operator-token-0000001',
);
const head = (method: string, path: string, headers: RequestHead['headers'] = {}): RequestHead => ({ method, path, headers });
const tokenOf = (claims: object) => `Bearer ${signHs256({ alg: 'HS256', typ: 'JWT' }, claims, 'any key at all: the front never judges it')}`;

describe('attributeRequest', () => {
  it('gives a POS call to the partner its iss names, whatever key signed it (its sandbox judges that)', () => {
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: tokenOf({ iss: 'beta-pos' }) }), book)).toEqual({ to: 'partner', name: 'beta-pos' });
    expect(attributeRequest(head('PUT', '/menu', { authorization: tokenOf({ iss: 'alpha-pos' }) }), book)).toEqual({ to: 'partner', name: 'alpha-pos' });
  });

  it("gives a POS call to the partner its iss names only when that partner's key signed it: anyone can write an iss", () => {
    const keyed = new PartnerBook(
      [
        { name: 'alpha-pos', adminToken: 'alpha-admin-token-0001', nonProdKey: 'alpha-nonprod-key-'.padEnd(40, 'a') },
        { name: 'beta-pos', adminToken: 'beta-admin-token-00001', nonProdKey: 'beta-nonprod-key-'.padEnd(40, 'b') },
      ],
      undefined,
    );
    const signed = (iss: string, key: string, claims: object = {}) => `Bearer ${signHs256({ alg: 'HS256', typ: 'JWT' }, { iss, ...claims }, key)}`;
    // Its own key: the partner's, whatever else is wrong (an expired token is its sandbox's to judge and journal).
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('alpha-pos', 'alpha-nonprod-key-'.padEnd(40, 'a'), { exp: 1 }) }), keyed)).toEqual({ to: 'partner', name: 'alpha-pos' });
    const wrong = "token signature does not verify with the non-prod key of POS 'alpha-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)";
    const oneAnswer = (iss: string) =>
      `token iss is '${iss}', and no POS partner of that name here has a non-prod key that verifies the token: iss must be your POS name as registered here, the token signed with its non-prod key (a production key, another partner's, or a mistyped one?) (§5)`;
    for (const key of ['beta-nonprod-key-'.padEnd(40, 'b'), 'a guessed key, or none at all ............']) {
      expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('alpha-pos', key) }), keyed)).toEqual({ to: 'nobody', code: 'UNAUTHORIZED', messages: [oneAnswer('alpha-pos')], detail: wrong });
    }
    // An iss that is no partner gets the same words: the answer does not tell a partner's name from a made-up one.
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('gamma-pos', 'a guessed key, or none at all ............') }), keyed)).toEqual({
      to: 'nobody',
      code: 'UNAUTHORIZED',
      messages: [oneAnswer('gamma-pos')],
      detail: "token iss is 'gamma-pos', which is no POS partner of this sandbox: iss must be your POS name as registered here (§5)",
    });
    // The operator may choose to tell them apart (tellUnknownPartners).
    const telling = new PartnerBook([{ name: 'alpha-pos', adminToken: 'alpha-admin-token-0001', nonProdKey: 'alpha-nonprod-key-'.padEnd(40, 'a') }], undefined, { tellUnknownPartners: true });
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('alpha-pos', 'beta-nonprod-key-'.padEnd(40, 'b')) }), telling)).toEqual({ to: 'nobody', code: 'UNAUTHORIZED', messages: [wrong] });
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('gamma-pos', 'x') }), telling)).toEqual({
      to: 'nobody',
      code: 'UNAUTHORIZED',
      messages: ["token iss is 'gamma-pos', which is no POS partner of this sandbox: iss must be your POS name as registered here (§5)"],
    });
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: signed('alpha-pos', 'x').replace(/\.[^.]+$/, '.') }), keyed)).toMatchObject({ to: 'nobody', code: 'UNAUTHORIZED' });
  });

  it('compares the iss exactly: another case, or spaces around it, is no partner', () => {
    for (const iss of ['ALPHA-POS', ' alpha-pos', 'alpha-pos ']) {
      expect(attributeRequest(head('POST', '/order/status', { authorization: tokenOf({ iss }) }), book)).toMatchObject({ to: 'nobody', code: 'UNAUTHORIZED' });
    }
  });

  it('refuses an iss of the wrong type, and a token it cannot read, with the messages of the token rules', () => {
    for (const iss of [42, null, ['alpha-pos'], { name: 'alpha-pos' }]) {
      expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: tokenOf({ iss }) }), book)).toEqual({
        to: 'nobody',
        code: 'UNAUTHORIZED',
        messages: ['token claim iss is missing or not a string: it must be your POS name, by which this sandbox knows whose key signed the token (§5)'],
      });
    }
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: 'Bearer a.b' }), book)).toEqual({
      to: 'nobody',
      code: 'UNAUTHORIZED',
      messages: ['token is not a JWT: expected header.payload.signature (three base64url parts separated by dots), got 2 part(s)'],
    });
    const none = `Bearer ${signHs256({ alg: 'none' }, { iss: 'gamma-pos' }, 'k')}`;
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: none }), book)).toEqual({
      to: 'nobody',
      code: 'UNAUTHORIZED',
      messages: ["token alg is 'none' (an unsigned token); only HS256 signed with the partner's non-prod key is accepted (§5)"],
    });
  });

  it("gives a broken token whose iss names a partner to that partner: its journal shows the partner's own mistake", () => {
    const none = `Bearer ${signHs256({ alg: 'none' }, { iss: 'alpha-pos' }, 'k')}`;
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: none }), book)).toEqual({ to: 'partner', name: 'alpha-pos' });
  });

  it('gives a control call to the partner whose admin token it carries, the Bearer scheme in any case', () => {
    expect(attributeRequest(head('GET', '/_sandbox/orders', { authorization: 'bearer  beta-admin-token-00001 ' }), book)).toEqual({ to: 'partner', name: 'beta-pos' });
    expect(attributeRequest(head('GET', '/_SANDBOX/Orders', { authorization: 'Bearer alpha-admin-token-0001' }), book)).toEqual({ to: 'partner', name: 'alpha-pos' });
  });

  it("never takes a POS token for the control API, nor an admin token for a POS call", () => {
    expect(attributeRequest(head('GET', '/_sandbox/orders', { authorization: tokenOf({ iss: 'alpha-pos' }) }), book)).toMatchObject({ to: 'nobody', code: 'UNAUTHORIZED' });
    expect(attributeRequest(head('POST', '/v2/order/refund', { authorization: 'Bearer alpha-admin-token-0001' }), book)).toMatchObject({ to: 'nobody', code: 'UNAUTHORIZED' });
  });

  it("lets the operator act for the partner it names, with that partner's own token, and read the list alone", () => {
    const operator = { authorization: 'Bearer operator-token-0000001' };
    expect(attributeRequest(head('POST', '/_sandbox/reset', { ...operator, 'x-sandbox-partner': 'alpha-pos' }), book)).toEqual({
      to: 'partner',
      name: 'alpha-pos',
      authorization: 'Bearer alpha-admin-token-0001',
    });
    expect(attributeRequest(head('GET', '/_sandbox/partners', operator), book)).toEqual({ to: 'operator' });
    expect(attributeRequest(head('GET', '/_sandbox/health', operator), book)).toEqual({ to: 'operator' });
    expect(attributeRequest(head('POST', '/_sandbox/reset', operator), book)).toMatchObject({ to: 'nobody', code: 'INVALID_REQUEST' });
  });

  it('serves the dashboard files and readiness to anyone, and nothing else of /_sandbox', () => {
    for (const path of ['/', '/_sandbox/ui', '/_sandbox/ui/app.js', '/_sandbox/ready']) expect(attributeRequest(head('GET', path), book)).toEqual({ to: 'any' });
    for (const path of ['/_sandbox/uix', '/_sandbox/ready/x', '/_sandbox']) expect(attributeRequest(head('GET', path), book)).toMatchObject({ to: 'nobody' });
    expect(attributeRequest(head('POST', '/_sandbox/ready'), book)).toMatchObject({ to: 'nobody' });
  });

  it('takes the first of repeated x-sandbox-partner headers', () => {
    const request = head('GET', '/_sandbox/orders', { authorization: 'Bearer operator-token-0000001', 'x-sandbox-partner': ['beta-pos', 'alpha-pos'] as unknown as string });
    expect(attributeRequest(request, book)).toMatchObject({ to: 'partner', name: 'beta-pos' });
  });
});

describe('attributeRequest on anything a client can send', () => {
  it('never throws, and gives a call to no partner but by its iss or its admin token', () => {
    const anyToken = fc.oneof(fc.string(), fc.constant('Bearer '), fc.string().map((text) => `Bearer ${text}`), fc.json().map((json) => `Bearer e30.${Buffer.from(json).toString('base64url')}.sig`), fc.constantFrom('alpha-pos', 'beta-pos', 'gamma-pos', 'ALPHA-POS').map((iss) => tokenOf({ iss })));
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'DELETE'), fc.oneof(fc.string(), fc.constantFrom('/_sandbox/orders', '/v2/order/refund', '/_sandbox', '/')), fc.option(anyToken), fc.option(fc.string()), (method, path, authorization, named) => {
        const attribution = attributeRequest(head(method, path, { ...(authorization === null ? {} : { authorization }), ...(named === null ? {} : { 'x-sandbox-partner': named }) }), book);
        if (attribution.to === 'partner') expect(['alpha-pos', 'beta-pos']).toContain(attribution.name);
        if (attribution.to === 'nobody') expect(attribution.messages.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
