/** Orders between the sandbox and the reference POS over real HTTP. */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { closeServers, createOrder, listen, liveReferencePos, liveSandbox, orderReaches } from './live.js';
import { orderEnvelope, PARTNER } from './helpers.js';

afterEach(closeServers);

/** A sandbox and a correct reference POS that know each other. */
async function pair(options: { statusInReply?: boolean } = {}) {
  const sandbox = await liveSandbox();
  const pos = await liveReferencePos(sandbox.url, () => sandbox.clock.now, options);
  return { sandbox, pos };
}

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('orders delivered to the reference POS', () => {
  it.each([
    ['standard', 'loc-std-001'],
    ['hub', 'loc-hub-001-burgers'],
    ['hub', 'loc-hub-001-noodles'],
    ['kiosk', 'loc-kiosk-001'],
  ])('a %s order for %s ends ACCEPTED with the ExternalId the POS gave it, and its refund is PROCESSED', async (template, locationId) => {
    const { sandbox, pos } = await pair();
    const created = await createOrder(sandbox.app, { template, locationId, posOrderUrl: pos.orderUrl });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ Status: 'AWAITING_STATUS', LocationId: locationId, Template: template });
    const orderId = created.body.OrderId as string;
    const accepted = await orderReaches(sandbox.app, orderId, 'ACCEPTED');
    expect(accepted.ExternalId).toBe(pos.pos.orders.get(orderId)!.ExternalId);
    expect((accepted.History as Array<{ status: string; by: string }>).map((step) => `${step.status}:${step.by}`)).toEqual([
      'NEW:dispatch',
      'DISPATCHED:dispatch',
      'AWAITING_STATUS:pos-reply',
      'ACCEPTED:pos-status',
    ]);

    const refund = await post(pos.url, '/refund', { sandboxUrl: sandbox.url, locationId, externalId: accepted.ExternalId });
    expect(refund.body.sandbox).toMatchObject({ status: 200, findings: 0 });
    await sandbox.refunds.runDue();
    const [settled] = (await request(sandbox.app).get(`/_sandbox/refunds?externalId=${String(accepted.ExternalId)}`)).body;
    expect(settled).toMatchObject({ status: 'PROCESSED', locationId, orderId });
    expect((await request(sandbox.app).get(`/_sandbox/orders/${orderId}`)).body.Status).toBe('REFUNDED');
  });

  it('delivers each Hub brand order to the same POS URL with its own LocationId, location header and token sub', async () => {
    const { sandbox, pos } = await pair();
    for (const locationId of ['loc-hub-001-burgers', 'loc-hub-001-noodles']) {
      const created = await createOrder(sandbox.app, { template: 'hub', locationId, posOrderUrl: pos.orderUrl });
      await orderReaches(sandbox.app, created.body.OrderId, 'ACCEPTED');
    }
    const deliveries = (await request(sandbox.app).get('/_sandbox/journal?direction=outbound')).body.reverse();
    expect(deliveries.map((entry: { url: string }) => entry.url)).toEqual([pos.orderUrl, pos.orderUrl]);
    expect(
      deliveries.map((entry: { request: { headers: Record<string, string>; body: { LocationId: string; Hub: object } }; token: { claims: object } }) => [
        entry.request.body.LocationId,
        entry.request.headers['x-service-locationid'],
        entry.token.claims,
        entry.request.body.Hub,
      ]),
    ).toEqual([
      ['loc-hub-001-burgers', 'loc-hub-001-burgers', expect.objectContaining({ sub: 'loc-hub-001-burgers' }), { HubId: 'hub-001', HubName: 'Central Kitchen', Brand: 'Burger Lab' }],
      ['loc-hub-001-noodles', 'loc-hub-001-noodles', expect.objectContaining({ sub: 'loc-hub-001-noodles' }), { HubId: 'hub-001', HubName: 'Central Kitchen', Brand: 'Noodle Bar' }],
    ]);
  });

  it('sends a kiosk order prepaid, eat-in or takeout, with its pager number', async () => {
    const { sandbox, pos } = await pair();
    const created = await createOrder(sandbox.app, { template: 'kiosk', eatIn: false, pagerNumber: '17', posOrderUrl: pos.orderUrl });
    expect(created.body.Order).toMatchObject({ LocationId: 'loc-kiosk-001', ServiceType: 'Takeout', Payment: { Prepaid: true }, Kiosk: { PagerNumber: '17', EatIn: false } });
    await orderReaches(sandbox.app, created.body.OrderId, 'ACCEPTED');
  });

  it('resends a REJECTED order with the same OrderId; the POS accepts it under the same ExternalId', async () => {
    const { sandbox, pos } = await pair();
    await post(pos.url, '/decide', { orderId: 'ord-t-1', decision: 'REJECTED', reason: 'Out of dough' });
    await createOrder(sandbox.app, { template: 'standard', orderId: 'ord-t-1', posOrderUrl: pos.orderUrl });
    const rejected = await orderReaches(sandbox.app, 'ord-t-1', 'REJECTED');
    expect(rejected.Reason).toBe('Out of dough');

    await post(pos.url, '/decide', { orderId: 'ord-t-1', decision: 'ACCEPTED' });
    const resent = await request(sandbox.app).post('/_sandbox/orders/ord-t-1/resend?wait=true');
    expect(resent.status).toBe(200);
    const accepted = await orderReaches(sandbox.app, 'ord-t-1', 'ACCEPTED');
    expect(accepted.ExternalId).toBe(rejected.ExternalId);
    expect(accepted.Reason).toBeUndefined();
    const deliveries = accepted.Deliveries as Array<{ dispatch: number; attempt: number; requestId: string }>;
    expect(deliveries.map((d) => [d.dispatch, d.attempt])).toEqual([[1, 1], [2, 1]]);
    expect(deliveries[0]!.requestId).not.toBe(deliveries[1]!.requestId);
    expect(accepted.Findings).toBeUndefined();
  });

  it('takes the decision from the reply when the POS answers with Status', async () => {
    const { sandbox, pos } = await pair({ statusInReply: true });
    await post(pos.url, '/decide', { orderId: 'ord-t-2', decision: 'REJECTED', reason: 'Closed' });
    const created = await createOrder(sandbox.app, { template: 'standard', orderId: 'ord-t-2', posOrderUrl: pos.orderUrl });
    expect(created.body).toMatchObject({ Status: 'REJECTED', Reason: 'Closed' });
    expect(created.body.History.at(-1)).toMatchObject({ status: 'REJECTED', by: 'pos-reply' });
  });

  it('resends an order of the fixtures as a whole order built from its template, not as {RequestId} alone', async () => {
    const received: Array<Record<string, unknown>> = [];
    const posOrderUrl = await listen((req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        received.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(503).end();
      });
    });
    const sandbox = await liveSandbox({ posOrderUrl, dispatch: { attempts: 1 } });
    const resent = await request(sandbox.app).post('/_sandbox/orders/ord-std-0003/resend?wait=true');
    expect(resent.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      OrderId: 'ord-std-0003',
      LocationId: 'loc-std-001',
      CreatedAt: '2026-11-01T23:10:00Z',
      RequestId: resent.body.Order.RequestId,
      Items: expect.arrayContaining([expect.objectContaining({ Quantity: expect.any(Number) })]),
    });
    expect(resent.body.Order).toEqual(received[0]);
  });

  it('refuses to resend an ACCEPTED order with 409 INVALID_STATE', async () => {
    const { sandbox } = await pair();
    const response = await request(sandbox.app).post('/_sandbox/orders/ord-std-0001/resend');
    expect(response.status).toBe(409);
    expect(response.body).toEqual(orderEnvelope('INVALID_STATE', 'order ord-std-0001 is ACCEPTED; only a REJECTED or DELIVERY_FAILED order can be resent'));
  });

  it('signs every delivery with a service → POS token: iss the service, aud the POS name, sub the location, HS256 with the partner key', async () => {
    const { sandbox, pos } = await pair();
    const created = await createOrder(sandbox.app, { template: 'standard', posOrderUrl: pos.orderUrl });
    const [entry] = (await request(sandbox.app).get(`/_sandbox/journal?direction=outbound&order=${created.body.OrderId}`)).body;
    expect(entry.token.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(entry.token.claims).toEqual({
      sub: 'loc-std-001',
      jti: expect.any(String),
      nbf: Math.floor(sandbox.clock.now / 1000),
      exp: Math.floor(sandbox.clock.now / 1000) + 300,
      iss: 'io.service.pos.brokers.openapi',
      aud: PARTNER.name,
    });
    expect(JSON.stringify(entry)).not.toContain(PARTNER.nonProdKey);
    expect(entry.request.headers).toMatchObject({ 'x-service-locationid': 'loc-std-001', 'x-request-id': created.body.Order.RequestId });
  });
});

describe('POST /_sandbox/orders', () => {
  it.each([
    [{ template: 'pizza' }, ['template must be one of hub, kiosk, standard, got string "pizza"']],
    [{ template: 'kiosk', locationId: 'loc-std-001' }, ["template 'kiosk' is for kiosk locations and 'loc-std-001' is standard; use loc-kiosk-001"]],
    [{ template: 'standard', eatIn: true, colour: 'red' }, ["unknown field 'colour'; the fields are template, locationId, orderId, eatIn, pagerNumber, posOrderUrl, order", 'eatIn apply to kiosk orders only']],
    [{ template: 'standard', posOrderUrl: 'ftp://pos' }, ['posOrderUrl must be an absolute http(s) URL, got string "ftp://pos"']],
    [{ template: 'standard', orderId: 'has space' }, ['orderId must be 1 to 64 of A-Z a-z 0-9 . _ : -, got string "has space"']],
  ])('answers 400 INVALID_REQUEST listing every problem of %j', async (body, messages) => {
    const { sandbox } = await pair();
    const response = await createOrder(sandbox.app, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(orderEnvelope('INVALID_REQUEST', ...messages));
    expect((await request(sandbox.app).get('/_sandbox/orders')).body).toHaveLength(6);
  });

  it('says where to give the POS order URL when there is none', async () => {
    const { sandbox } = await pair();
    const response = await createOrder(sandbox.app, { template: 'standard' });
    expect(response.body).toEqual(
      orderEnvelope('INVALID_REQUEST', 'no POS order URL: start the sandbox with --pos-order-url URL (or SANDBOX_POS_ORDER_URL), or give posOrderUrl in this body'),
    );
  });

  it('answers 409 ALREADY_EXISTS for an OrderId that exists, and changes nothing', async () => {
    const { sandbox, pos } = await pair();
    const response = await createOrder(sandbox.app, { template: 'standard', orderId: 'ord-std-0001', posOrderUrl: pos.orderUrl });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(orderEnvelope('ALREADY_EXISTS', 'order ord-std-0001 already exists; GET /_sandbox/orders/ord-std-0001 shows it'));
    expect(pos.pos.orders.size).toBe(0);
  });

  it('answers 202 with the DISPATCHED order at once without ?wait=true', async () => {
    const { sandbox, pos } = await pair();
    const response = await request(sandbox.app)
      .post('/_sandbox/orders')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ template: 'standard', posOrderUrl: pos.orderUrl }));
    expect(response.status).toBe(202);
    expect(response.headers.location).toBe(`/_sandbox/orders/${response.body.OrderId}`);
    expect(response.body.Status).toBe('DISPATCHED');
    await orderReaches(sandbox.app, response.body.OrderId, 'ACCEPTED');
  });
});
