/** POST /order/status (§4.3): the POS decides an order AWAITING_STATUS; lowercase envelope. */
import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Express } from 'express';
import { closeServers, createOrder, liveSandbox, scriptedPos } from './live.js';
import { cleanHeaders, orderEnvelope, posToken, postRefund } from './helpers.js';

afterEach(closeServers);

/** A sandbox holding one order AWAITING_STATUS (ExternalId X-1) at `locationId`. */
async function awaiting(template = 'standard', locationId = 'loc-std-001', options: { strict?: boolean } = {}) {
  const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1' } }]);
  const sandbox = await liveSandbox({ posOrderUrl: pos.url, ...options });
  const created = await createOrder(sandbox.app, { template, locationId });
  expect(created.body.Status).toBe('AWAITING_STATUS');
  return { sandbox, orderId: created.body.OrderId as string };
}

function postStatus(app: Express, body: unknown, options: { location?: string | undefined; path?: string } = {}) {
  const location = 'location' in options ? options.location : 'loc-std-001';
  const headers = { ...cleanHeaders(posToken({ sub: location ?? 'loc-std-001' })), 'x-service-locationid': location };
  let call = request(app).post(options.path ?? '/v2/order/status');
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) call = call.set(name, value);
  return call.send(typeof body === 'string' ? body : JSON.stringify(body));
}

describe('POST /order/status', () => {
  it.each(['/order/status', '/v2/order/status', '/v1/pos/openapi/order/status'])('moves AWAITING_STATUS to ACCEPTED at %s and answers 200 with no body', async (path) => {
    const { sandbox, orderId } = await awaiting();
    const response = await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'ACCEPTED' }, { path });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers).toMatchObject({ 'x-sandbox-order-id': orderId, 'x-sandbox-order-status': 'ACCEPTED', 'x-sandbox-findings': '0' });
    const order = (await request(sandbox.app).get(`/_sandbox/orders/${orderId}`)).body;
    expect(order.History.at(-1)).toEqual({ status: 'ACCEPTED', at: expect.any(String), by: 'pos-status', journalId: response.headers['x-sandbox-journal-id'] });
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry).toMatchObject({ direction: 'inbound', orderId });
  });

  it('moves it to REJECTED with the Reason; a refund of it then fails ORDER_NOT_ACCEPTED', async () => {
    const { sandbox, orderId } = await awaiting();
    await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'REJECTED', Reason: 'Kitchen closed' }).expect(200);
    expect((await request(sandbox.app).get(`/_sandbox/orders/${orderId}`)).body).toMatchObject({ Status: 'REJECTED', Reason: 'Kitchen closed' });
    expect((await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'X-1' }) })).status).toBe(200);
    await sandbox.refunds.runDue();
    const [refund] = (await request(sandbox.app).get('/_sandbox/refunds')).body;
    expect(refund).toMatchObject({ status: 'FAILED', reason: 'ORDER_NOT_ACCEPTED', detail: `order ${orderId} is REJECTED, not ACCEPTED` });
  });

  it('decides the order that awaits a status when an ExternalId was given to two orders of the location (a POS restarted)', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1' } }, { status: 200, body: { ExternalId: 'X-1' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const first = (await createOrder(sandbox.app, { template: 'standard', locationId: 'loc-std-001' })).body.OrderId as string;
    await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'ACCEPTED' }).expect(200);
    const second = (await createOrder(sandbox.app, { template: 'standard', locationId: 'loc-std-001' })).body.OrderId as string;
    const response = await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'ACCEPTED' });
    expect([response.status, response.headers['x-sandbox-order-id']]).toEqual([200, second]);
    expect((await request(sandbox.app).get(`/_sandbox/orders/${first}`)).body.Status).toBe('ACCEPTED');
    // Both decided now: a third call cannot name one, and says which orders the ExternalId names.
    const third = await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'REJECTED', Reason: 'again' });
    expect([third.status, third.body]).toEqual([
      409,
      orderEnvelope(
        'INVALID_STATE',
        `ExternalId 'X-1' names 2 orders at location 'loc-std-001' (${first}, ACCEPTED; ${second}, ACCEPTED), and none awaits a status: the call cannot name one. Give each order an ExternalId of its own (one given again after a POS restart matches an earlier order), or start the sandbox afresh (pos-sandbox reset)`,
      ),
    ]);
  });

  it('answers 400 INVALID_PAYLOAD listing every problem of the body, and changes nothing', async () => {
    const { sandbox, orderId } = await awaiting();
    const response = await postStatus(sandbox.app, { ExternalId: '', Status: 'DONE', Reason: 5 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      orderEnvelope('INVALID_PAYLOAD', 'ExternalId must not be empty or blank', 'Status must be ACCEPTED or REJECTED (§3), got string "DONE"', 'Reason must be a string, got number 5'),
    );
    expect((await request(sandbox.app).get(`/_sandbox/orders/${orderId}`)).body.Status).toBe('AWAITING_STATUS');
  });

  it('answers 400 INVALID_PAYLOAD without the location header', async () => {
    const { sandbox } = await awaiting();
    const response = await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'ACCEPTED' }, { location: undefined });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].code).toBe('INVALID_PAYLOAD');
    expect(response.body.errors[0].message).toMatch(/x-service-locationid/);
  });

  it('answers 400 INVALID_PAYLOAD for an ExternalId the sandbox does not know', async () => {
    const { sandbox } = await awaiting();
    const response = await postStatus(sandbox.app, { ExternalId: 'NOPE', Status: 'ACCEPTED' });
    expect(response.body).toEqual(
      orderEnvelope('INVALID_PAYLOAD', "no order with ExternalId 'NOPE' at location 'loc-std-001'; ExternalId is the id the POS returned when the order was delivered"),
    );
  });

  it.each([
    ['ord-std-0001', 'POS-STD-1001', 'ACCEPTED', 'it was already decided (ACCEPTED); a status is sent once per delivery'],
    ['ord-std-0003', 'POS-STD-1003', 'REJECTED', 'it was already decided (REJECTED); a status is sent once per delivery'],
  ])('answers 409 INVALID_STATE when %s is already decided', async (orderId, externalId, _status, why) => {
    const { sandbox } = await awaiting();
    const response = await postStatus(sandbox.app, { ExternalId: externalId, Status: 'ACCEPTED' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      orderEnvelope('INVALID_STATE', `order ${orderId} cannot become ACCEPTED: ${why}. The status is accepted only while the order is AWAITING_STATUS, after a reply without Status`),
    );
  });

  it('answers 401 UNAUTHORIZED in the lowercase envelope for a bad token', async () => {
    const { sandbox } = await awaiting();
    const response = await request(sandbox.app)
      .post('/v2/order/status')
      .set({ ...cleanHeaders(posToken({ aud: 'someone-else' })) })
      .send(JSON.stringify({ ExternalId: 'X-1', Status: 'ACCEPTED' }));
    expect(response.status).toBe(401);
    expect(response.body.errors[0]).toEqual({ code: 'UNAUTHORIZED', message: expect.stringContaining('aud') });
  });

  describe('a Hub order', () => {
    it('is not decided from another brand location: 400 naming the right one, with a WRONG_BRAND_LOCATION finding', async () => {
      const { sandbox, orderId } = await awaiting('hub', 'loc-hub-001-noodles');
      const response = await postStatus(sandbox.app, { ExternalId: 'X-1', Status: 'ACCEPTED' }, { location: 'loc-hub-001-burgers' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        orderEnvelope(
          'INVALID_PAYLOAD',
          `ExternalId 'X-1' is order ${orderId} of location 'loc-hub-001-noodles', not of 'loc-hub-001-burgers'; send the status with x-service-locationid: loc-hub-001-noodles`,
        ),
      );
      const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
      expect(entry.orderId).toBe(orderId);
      expect(entry.findings).toEqual([
        {
          code: 'WRONG_BRAND_LOCATION',
          section: '§1 (Hub), sandbox rule',
          message: `POST /order/status for order ${orderId} used location 'loc-hub-001-burgers', but the order is for the Hub brand location 'loc-hub-001-noodles'; use the order's own LocationId in every call about it`,
        },
      ]);
      expect((await request(sandbox.app).get(`/_sandbox/orders/${orderId}`)).body.Status).toBe('AWAITING_STATUS');
    });

    it('refunded from another brand location draws the finding at once and fails ORDER_NOT_FOUND when processed', async () => {
      const { sandbox } = await awaiting();
      const response = await postRefund(sandbox.app, {
        headers: { 'x-service-locationid': 'loc-hub-001-noodles', Authorization: `Bearer ${posToken({ sub: 'loc-hub-001-noodles' })}` },
        body: JSON.stringify({ ExternalId: 'POS-HUB-2001' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers['x-sandbox-findings']).toBe('1');
      const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
      expect(entry.findings.map((f: { code: string }) => f.code)).toEqual(['WRONG_BRAND_LOCATION']);
      await sandbox.refunds.runDue();
      expect((await request(sandbox.app).get('/_sandbox/refunds')).body[0]).toMatchObject({ status: 'FAILED', reason: 'ORDER_NOT_FOUND' });
    });

    it('rejects the wrong brand location with 400 under --strict, naming the finding', async () => {
      const { sandbox } = await awaiting('standard', 'loc-std-001', { strict: true });
      const response = await postRefund(sandbox.app, {
        headers: { 'x-service-locationid': 'loc-hub-001-noodles', Authorization: `Bearer ${posToken({ sub: 'loc-hub-001-noodles' })}` },
        body: JSON.stringify({ ExternalId: 'POS-HUB-2001' }),
      });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].message).toMatch(/^strict mode: WRONG_BRAND_LOCATION: /);
    });
  });
});
