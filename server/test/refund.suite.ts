import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '../http/error-handler.js';
import { silentLogger } from '../logger.js';
import { orderEnvelope, postRefund, testApp } from './helpers.js';

const LOCATION_REQUIRED = 'header x-service-locationid is required: the identifier of the merchant location (§4)';
const EXTERNAL_ID_REQUIRED = 'ExternalId is required: the ID the POS returned for the order (§2.1)';

describe('POST /order/refund (§4.1)', () => {
  it.each(['/order/refund', '/v2/order/refund', '/v1/pos/openapi/order/refund', '/V2/Order/Refund/'])(
    'answers 200 with no body at %s',
    async (path) => {
      const response = await postRefund(testApp(), { path });
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers['content-length']).toBe('0');
      expect(response.headers['x-sandbox-findings']).toBe('0');
    },
  );

  // The documented spellings take a lane past the other routers (app.ts); any other spelling takes the routes. A POS
  // must not be able to tell which: the same answer, byte for byte, headers included, and each call journaled.
  it('answers a call the same whether it takes the lane or the routes', async () => {
    const app = testApp();
    const sent = { 'x-service-locationid': undefined, 'x-request-id': 'same-answer' };
    const answers = [];
    const journalIds: string[] = [];
    for (const path of ['/v2/order/refund?trace=1', '/V2/order/refund/?trace=1', '/order/refund', '/Order/Refund']) {
      const response = await postRefund(app, { path, headers: sent });
      const headers: Record<string, unknown> = { ...response.headers };
      expect(headers['x-sandbox-journal-id']).toMatch(/^j-\d{6}$/);
      journalIds.push(headers['x-sandbox-journal-id'] as string);
      delete headers['x-sandbox-journal-id'];
      delete headers.date;
      answers.push({ status: response.status, body: response.body as unknown, headers });
    }
    expect(answers[0]).toEqual({
      status: 400,
      body: orderEnvelope('INVALID_PAYLOAD', LOCATION_REQUIRED),
      headers: expect.objectContaining({ 'x-request-id': 'same-answer', 'x-sandbox-findings': '0' }) as unknown,
    });
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    // Each entry by its id: a page of the journal may stop early on a busy machine (it renders 25 ms at most).
    const paths = [];
    for (const id of journalIds) paths.push(((await request(await app).get(`/_sandbox/journal/${id}`).expect(200)).body as { path: string }).path);
    expect(paths).toEqual(['/v2/order/refund', '/V2/order/refund/', '/order/refund', '/Order/Refund']);
  });

  it.each([
    ['an unknown location', { 'x-service-locationid': 'loc-nowhere' }, JSON.stringify({ ExternalId: 'POS-STD-1001' })],
    ['an unknown ExternalId', {}, JSON.stringify({ ExternalId: 'no-such-order' })],
  ])('accepts %s: rule 1 checks nothing more, processing fails later', async (_case, headers, body) => {
    const response = await postRefund(testApp(), { headers, body });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
  });

  const INVALID: Array<[string, Record<string, string | undefined>, string, string[]]> = [
    ['the location header is missing', { 'x-service-locationid': undefined }, '{"ExternalId":"POS-STD-1001"}', [LOCATION_REQUIRED]],
    ['the location header is blank', { 'x-service-locationid': '   ' }, '{"ExternalId":"POS-STD-1001"}', [LOCATION_REQUIRED]],
    ['the body is malformed JSON', {}, '{"ExternalId": ', ['body is not valid JSON: Unexpected end of JSON input']],
    ['the body is empty', {}, '', ['body is empty; send a JSON object']],
    ['the body is an array', {}, '[{"ExternalId":"POS-STD-1001"}]', ['body must be a JSON object such as {"ExternalId":"..."}, got array [{"ExternalId":"POS-STD-1001"}]']],
    ['the body is a string', {}, '"POS-STD-1001"', ['body must be a JSON object such as {"ExternalId":"..."}, got string "POS-STD-1001"']],
    ['the body is null', {}, 'null', ['body must be a JSON object such as {"ExternalId":"..."}, got null']],
    ['the body is not JSON at all', { 'Content-Type': 'text/plain' }, 'POS-STD-1001', ["Content-Type must be application/json (§4), got 'text/plain'"]],
    [
      'the body is form-encoded',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'ExternalId=POS-STD-1001',
      ["Content-Type must be application/json (§4), got 'application/x-www-form-urlencoded'"],
    ],
    ['ExternalId is missing', {}, '{}', [EXTERNAL_ID_REQUIRED]],
    ['ExternalId is miscased', {}, '{"externalId":"POS-STD-1001"}', [`${EXTERNAL_ID_REQUIRED} (found 'externalId'; field names are case-sensitive)`]],
    ['ExternalId is empty', {}, '{"ExternalId":""}', ['ExternalId must not be empty']],
    ['ExternalId is blank', {}, '{"ExternalId":" \\t "}', ['ExternalId must not be blank (it is only white space)']],
    ['ExternalId is a number', {}, '{"ExternalId":1001}', ['ExternalId must be a string, got number 1001']],
    ['ExternalId is null', {}, '{"ExternalId":null}', ['ExternalId must be a string, got null']],
    ['ExternalId is an object', {}, '{"ExternalId":{"id":"x"}}', ['ExternalId must be a string, got object {"id":"x"}']],
    ['both the location header and ExternalId are missing', { 'x-service-locationid': undefined }, '{}', [LOCATION_REQUIRED, EXTERNAL_ID_REQUIRED]],
  ];

  it.each(INVALID)('answers 400 INVALID_PAYLOAD when %s', async (_case, headers, body, messages) => {
    const response = await postRefund(testApp(), { headers, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(orderEnvelope('INVALID_PAYLOAD', ...messages));
  });

  it('answers 413 PAYLOAD_TOO_LARGE over 1 MiB, in the envelope', async () => {
    const body = JSON.stringify({ ExternalId: 'POS-STD-1001', Padding: 'x'.repeat(1024 * 1024) });
    const response = await postRefund(testApp(), { body });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(
      orderEnvelope('PAYLOAD_TOO_LARGE', `body is ${Buffer.byteLength(body)} bytes; the sandbox accepts at most 1 MiB (1048576 bytes)`),
    );
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const prefix = '{"ExternalId":"POS-STD-1001","Padding":"';
    const body = `${prefix}${'x'.repeat(1024 * 1024 - prefix.length - 2)}"}`;
    const response = await postRefund(testApp(), { body });
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    expect(response.status).toBe(200);
  });

  it('echoes x-request-id, and makes one when the client sent none', async () => {
    const echoed = await postRefund(testApp(), { headers: { 'x-request-id': 'pos-trace-42' } });
    expect(echoed.headers['x-request-id']).toBe('pos-trace-42');
    const generated = await postRefund(testApp());
    expect(generated.headers['x-request-id']).toBe('id-1');
  });
});

describe('unknown paths, wrong methods and retired paths', () => {
  // A GET is v1's wait for a refund's result, and its 405 says so (v1-habits.test.ts).
  it.each(['/order/refund', '/v2/order/refund', '/v1/pos/openapi/order/refund'])('answers 405 with Allow: POST for DELETE %s', async (path) => {
    const response = await request(await testApp()).delete(path);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.body).toEqual(orderEnvelope('METHOD_NOT_ALLOWED', `DELETE is not allowed on ${path}; use POST`));
  });

  it('answers 404 NOT_FOUND in the envelope, never an HTML page', async () => {
    const response = await request(await testApp()).post('/v2/orders/refund');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(
      orderEnvelope(
        'NOT_FOUND',
        'no endpoint at POST /v2/orders/refund; the sandbox serves POST /order/refund, PUT /menu and POST /order/status under /, /v2 and /v1/pos/openapi',
      ),
    );
  });

  it('answers 404 for a menu path in the capitalized menu envelope', async () => {
    const response = await request(await testApp()).put('/v2/brand/menu');
    expect(response.status).toBe(404);
    expect(response.body.errors[0].Code).toBe('NOT_FOUND');
  });

  it('answers 410 ENDPOINT_RETIRED for the v1 integration family, naming the v2 path', async () => {
    const response = await request(await testApp()).post('/v1/pos/integration/order/refund').send({ ExternalId: 'x' });
    expect(response.status).toBe(410);
    expect(response.body).toEqual(
      orderEnvelope(
        'ENDPOINT_RETIRED',
        "/v1/pos/integration/order/refund is the retired v1 integration API (step 2 of §9's migration, adjust endpoints); v2 serves POST /v2/order/refund (also under /v1/pos/openapi/order/refund), with a Bearer JWT (§4.3, §5)",
      ),
    );
  });

  it('answers an unexpected failure with a 500 in the envelope and no stack trace', async () => {
    const app = express();
    app.get('/boom', () => {
      throw new Error('secret internals at /work/server/app.ts:12');
    });
    app.use(errorHandler(silentLogger()));
    const response = await request(app).get('/boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual(orderEnvelope('INTERNAL_ERROR', 'the sandbox failed unexpectedly; its log has the details'));
    expect(response.text).not.toContain('secret internals');
  });
});
