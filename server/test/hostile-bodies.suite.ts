/**
 * Bodies and tokens built to break the sandbox: deep nesting, objects where strings belong, compressed-looking
 * bodies. Each must get a 4xx in its endpoint's envelope, change nothing, and leave the journal readable.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { MAX_JSON_DEPTH } from '../http/json-text.js';
import { EXTERNAL_ID, cleanHeaders, menuEnvelope, orderEnvelope, posToken, postRefund, signHs256, testSandbox, validClaims } from './helpers.js';

const nested = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);
const depthMessage = (levels: number) =>
  `body nests arrays and objects ${levels} levels deep; the sandbox accepts at most ${MAX_JSON_DEPTH} levels (a §2 payload needs fewer than 10)`;

describe('a body nested deeper than the limit', () => {
  it.each([
    ['refund', '/v2/order/refund', 'order'],
    ['order status', '/v2/order/status', 'order'],
    ['menu', '/v2/menu', 'menu'],
  ] as const)('%s: 4,000 levels (under 16 KiB) answer 400 in the envelope, and the journal keeps it as text', async (_name, path, family) => {
    const sandbox = await testSandbox();
    const body = nested(4000);
    const call = path === '/v2/menu' ? request(sandbox.app).put(path) : request(sandbox.app).post(path);
    const res = await call.set(cleanHeaders()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(family === 'menu' ? menuEnvelope([depthMessage(4000)]) : orderEnvelope('INVALID_PAYLOAD', depthMessage(4000)));
    const [entry] = sandbox.journal.list({});
    expect(entry?.request.body).toBeUndefined();
    // Compared as a boolean: a failure must not print 8,000 brackets.
    expect(entry?.request.bodyText === body).toBe(true);
  });

  it('a refund whose note is 3,300 arrays deep creates no refund, so a retry cannot make a second one', async () => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { body: `{"ExternalId":"${EXTERNAL_ID}","note":${nested(3300, '1')}}` });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(orderEnvelope('INVALID_PAYLOAD', depthMessage(3301)));
    expect(res.headers['x-sandbox-refund-id']).toBeUndefined();
    expect(sandbox.store.refunds.all()).toEqual([]);
  });

  it('20,000 levels answer 400 as well (JSON.stringify would overflow on such a value)', async () => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { body: `{"ExternalId":${nested(20_000)}}` });
    expect(res.body).toEqual(orderEnvelope('INVALID_PAYLOAD', depthMessage(20_001)));
  });

  it(`${MAX_JSON_DEPTH} levels are read as usual: the limit is on depth, not on the field`, async () => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { body: `{"ExternalId":"${EXTERNAL_ID}","note":${nested(MAX_JSON_DEPTH - 1)}}` });
    expect(res.status).toBe(200);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: EXTERNAL_ID, note: '['.repeat(5000) + '\\"{' }) });
    expect(res.body).toEqual({});
    expect(res.status).toBe(200);
  });
});

describe('a token built to break the token check', () => {
  it('an alg that is an object with a toString answers 401 naming the type', async () => {
    const sandbox = await testSandbox();
    const token = signHs256({ alg: { toString: 'HS256' }, typ: 'JWT' }, validClaims());
    const res = await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(orderEnvelope('UNAUTHORIZED', 'token alg must be the string \'HS256\' (§5), got object'));
  });

  it('an iss that is an object with a toString is a claim-type defect, and the journal records it', async () => {
    const sandbox = await testSandbox();
    const token = posToken({ iss: { toString: 'demo-pos' } });
    const res = await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.body).toEqual(orderEnvelope('UNAUTHORIZED', 'token claim iss must be a string, got object {"toString":"demo-pos"}'));
    expect(sandbox.journal.list({})[0]?.response.status).toBe(401);
  });

  it('a crit header naming an extension the sandbox does not know is refused (RFC 7515 §4.1.11)', async () => {
    const sandbox = await testSandbox();
    const token = signHs256({ alg: 'HS256', typ: 'JWT', crit: ['exp-ms'], 'exp-ms': true }, validClaims());
    const res = await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      orderEnvelope('UNAUTHORIZED', "token header crit names 'exp-ms', an extension the service does not understand; a token must not require extensions (RFC 7515 §4.1.11)"),
    );
    expect(sandbox.store.refunds.all()).toEqual([]);
  });

  it('a token header nested 3,000 levels deep is not decoded, and the journal survives it', async () => {
    const sandbox = await testSandbox();
    const header = Buffer.from(`{"alg":"HS256","x":${nested(3000)}}`).toString('base64url');
    const token = `${header}.${Buffer.from(JSON.stringify(validClaims())).toString('base64url')}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
    const res = await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.body).toEqual(orderEnvelope('UNAUTHORIZED', 'token header is not base64url-encoded JSON: this is not a JWT'));
    expect(sandbox.journal.list({})[0]?.token).toEqual({ sha256: expect.any(String), unreadable: 'not a JWT' });
  });
});

describe('a Content-Encoding the body does not have', () => {
  it.each(['gzip', 'deflate', 'br'])('%s on a plain JSON body answers 400 saying the body is not in that encoding', async (encoding) => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { headers: { 'Content-Encoding': encoding } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      orderEnvelope('INVALID_PAYLOAD', `body is sent with Content-Encoding: ${encoding} but is not ${encoding} data; send plain UTF-8 JSON without Content-Encoding, or compress it as declared`),
    );
    expect(sandbox.store.refunds.all()).toEqual([]);
  });

  it('an unknown encoding answers 400 naming it', async () => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { headers: { 'Content-Encoding': 'zstd-ish' } });
    expect(res.body).toEqual(orderEnvelope('INVALID_PAYLOAD', 'body cannot be read: unsupported content encoding "zstd-ish"; send UTF-8 JSON'));
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ] as const)('a body really compressed with %s is read', async (encoding, compress) => {
    const sandbox = await testSandbox();
    // Over a real socket: supertest would serialize a Buffer as JSON.
    const server = sandbox.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v2/order/refund`, {
        method: 'POST',
        headers: { ...cleanHeaders(), 'Content-Encoding': encoding },
        body: compress(Buffer.from(JSON.stringify({ ExternalId: EXTERNAL_ID }))),
      });
      expect(res.status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('a path parameter that is not UTF-8 once decoded', () => {
  it.each(['/_sandbox/journal/%C0', '/_sandbox/orders/%E0%A4%A', '/_sandbox/faults/%C0', '/_sandbox/locations/%C0/menu'])('%s answers 400, not 500', async (path) => {
    const sandbox = await testSandbox();
    const res = await request(sandbox.app).get(path);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('INVALID_REQUEST');
    expect(res.body.errors[0].message).toMatch(/^the path holds a percent-encoding that is not UTF-8 \(Failed to decode param '%[A-F0-9%]+'\); encode every character of an id as UTF-8 bytes$/);
  });
});

describe('a price JSON cannot hold exactly', () => {
  it('9007199254740993 (read as …992) is refused naming the largest whole number kept exactly', async () => {
    const sandbox = await testSandbox();
    const res = await request(sandbox.app)
      .put('/v2/menu')
      .set(cleanHeaders())
      .send('{"LocationId":"loc-std-001","Items":[{"Id":"itm-margherita","Name":"Pizza Margherita","Type":"Item","Prices":[{"ServiceType":"Takeout","Price":9007199254740993}]}]}');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ Code: 'VALIDATION_ERROR', Message: expect.stringMatching(/Price must be 9007199254740991 or less, got number 9007199254740992$/) }]);
  });
});

describe('resending an order of the fixtures (it carries no POS order URL of its own)', () => {
  it('goes to --pos-order-url, not a 500 from new URL(undefined)', async () => {
    const sandbox = await testSandbox({ posOrderUrl: 'http://127.0.0.1:9/order', dispatch: { attempts: 1 } });
    const res = await request(sandbox.app).post('/_sandbox/orders/ord-std-0003/resend?wait=true');
    expect(res.status).toBe(200);
    expect(res.body.Status).toBe('DELIVERY_FAILED');
    const [delivery] = sandbox.journal.list({ direction: 'outbound', orderId: 'ord-std-0003' });
    expect(delivery?.url).toBe('http://127.0.0.1:9/order');
  });

  it('answers 400 and leaves the order as it was when the sandbox has no order URL', async () => {
    const sandbox = await testSandbox();
    const before = sandbox.orders.get('ord-std-0003');
    const res = await request(sandbox.app).post('/_sandbox/orders/ord-std-0003/resend');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      orderEnvelope('INVALID_REQUEST', 'order ord-std-0003 has no POS order URL to go to: start the sandbox with --pos-order-url URL (or SANDBOX_POS_ORDER_URL)'),
    );
    expect(sandbox.orders.get('ord-std-0003')).toEqual(before);
  });
});

describe('bodies built to grow the sandbox (from the second attack run)', () => {
  it('5,000 unknown fields draw 11 findings, not 5,000: ten named and one counting the rest', async () => {
    const sandbox = await testSandbox();
    const fields = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 0]));
    const res = await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: EXTERNAL_ID, ...fields }) });
    expect(res.status).toBe(200);
    expect(res.headers['x-sandbox-findings']).toBe('11');
    const findings = sandbox.journal.list({})[0]!.findings;
    expect(findings.at(-1)?.message).toBe('4990 more fields are not fields of a refund request (§2.1) either; only the first 10 are listed');
  });

  it.each([
    ['/v2/order/refund', { ExternalId: 'x'.repeat(257) }],
    ['/v2/order/status', { ExternalId: 'x'.repeat(257), Status: 'ACCEPTED' }],
  ])('%s: an ExternalId over 256 characters is 400 and stores nothing', async (path, body) => {
    const sandbox = await testSandbox();
    const res = await postRefund(sandbox.app, { path, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(orderEnvelope('INVALID_PAYLOAD', 'ExternalId is 257 characters long; the sandbox accepts at most 256 (the ID the POS gave the order)'));
    expect(sandbox.store.refunds.all()).toEqual([]);
  });
});
