/** The reference POS against a real sandbox over HTTP: correct by default, and each --bug breaks what it says. */
import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import type { Bug } from '../bugs.js';
import { closedPort, closeServers, createOrder, listen, liveReferencePos, liveSandbox, orderReaches } from '../../server/test/live.js';
import { fixtures, PARTNER } from '../../server/test/helpers.js';
import { createReferencePos } from '../app.js';

afterEach(closeServers);

async function pair(bugs: Bug[] = [], options: { slowAckMs?: number; attemptTimeoutMs?: number } = {}) {
  const sandbox = await liveSandbox({ dispatch: { attemptTimeoutMs: options.attemptTimeoutMs ?? 2_000 } });
  const pos = await liveReferencePos(sandbox.url, () => sandbox.clock.now, { bugs, slowAckMs: options.slowAckMs });
  return { sandbox, pos };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A service → POS token for an order at loc-std-001, signed with `key`, with claims changed. */
function serviceToken(nowSeconds: number, overrides: Record<string, unknown> = {}, key = PARTNER.nonProdKey): string {
  const claims = { sub: 'loc-std-001', jti: 'j-1', nbf: nowSeconds, exp: nowSeconds + 300, iss: 'io.service.pos.brokers.openapi', aud: PARTNER.name, ...overrides };
  return jwt.sign(claims, key, { algorithm: 'HS256', noTimestamp: true });
}

const ORDER = { OrderId: 'ord-direct-1', RequestId: 'req-1', LocationId: 'loc-std-001' };

describe('the reference POS when its sandbox does not answer', () => {
  it('logs the status call it could not send with the URL it tried and the cause, once', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const logged = new Promise<void>((resolve) => {
      const app = createReferencePos({
        identity: { posName: PARTNER.name, key: PARTNER.nonProdKey, apiKey: PARTNER.apiKey },
        sandboxUrl: `http://127.0.0.1:${port}`,
        menus: fixtures.menus,
        locations: fixtures.locations,
        bugs: new Set(),
        log: (line) => {
          lines.push(line);
          if (line.includes('not sent')) resolve();
        },
      });
      void listen(app).then((url) => post(`${url}/order`, ORDER, { authorization: `Bearer ${serviceToken(Math.floor(Date.now() / 1000))}`, 'x-service-locationid': 'loc-std-001' }));
    });
    await logged;
    expect(lines.filter((line) => line.includes('not sent'))).toEqual([`status for ord-direct-1 not sent to http://127.0.0.1:${port}/v2/order/status: connect ECONNREFUSED 127.0.0.1:${port}`]);
  });
});

describe('the reference POS order endpoint', () => {
  it.each([
    ['a bad signature', {}, 'another-key-of-enough-length-to-sign-with'],
    ['an expired token', { nbf: -900, exp: -120 }, undefined],
    ['the wrong audience', { aud: 'io.service.pos.brokers.openapi' }, undefined],
  ])('rejects an order whose token has %s with 401 and creates nothing', async (_case, shift, key) => {
    const { sandbox, pos } = await pair();
    const now = Math.floor(sandbox.clock.now / 1000);
    const overrides = Object.fromEntries(Object.entries(shift).map(([claim, value]) => [claim, typeof value === 'number' ? now + value : value]));
    const answer = await post(pos.orderUrl, ORDER, { authorization: `Bearer ${serviceToken(now, overrides, key)}`, 'x-service-locationid': 'loc-std-001' });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].code).toBe('UNAUTHORIZED');
    expect(pos.pos.orders.size).toBe(0);
  });

  it('answers the same OrderId with the same ExternalId (idempotent)', async () => {
    const { sandbox, pos } = await pair();
    const headers = { authorization: `Bearer ${serviceToken(Math.floor(sandbox.clock.now / 1000))}`, 'x-service-locationid': 'loc-std-001' };
    const first = await post(pos.orderUrl, ORDER, headers);
    const again = await post(pos.orderUrl, ORDER, headers);
    expect(first.body.ExternalId).toEqual(expect.any(String));
    expect(again.body.ExternalId).toBe(first.body.ExternalId);
    expect(pos.pos.orders.size).toBe(1);
  });

  it('answers the driver contract: health, decide, refund, menu', async () => {
    const { sandbox, pos } = await pair();
    expect(await (await fetch(`${pos.url}/health`)).json()).toEqual({ status: 'ok', product: 'pos-sandbox reference POS', posName: PARTNER.name, bugs: [], orders: 0 });
    expect((await post(`${pos.url}/decide`, { orderId: 'o-1', decision: 'REJECTED', reason: 'r' })).body).toEqual({ orderId: 'o-1', decision: 'REJECTED', appliesTo: 'the order when it arrives' });
    const menu = await post(`${pos.url}/menu`, { sandboxUrl: sandbox.url, locationId: 'loc-std-001', form: 'B', changes: [{ itemId: 'itm-margherita', price: 1290 }] });
    expect(menu.body.sandbox).toMatchObject({ status: 200, findings: 0 });
    const refund = await post(`${pos.url}/refund`, { sandboxUrl: sandbox.url, locationId: 'loc-std-001', externalId: 'POS-STD-1001' });
    expect(refund.body.sandbox).toMatchObject({ status: 200, findings: 0 });
    expect((await post(`${pos.url}/decide`, { orderId: 'o-1', decision: 'MAYBE' })).status).toBe(400);
  });
});

describe('each --bug breaks what it says', () => {
  it('reuse-jti: the sandbox finds JTI_REUSED on the second call', async () => {
    const { sandbox, pos } = await pair(['reuse-jti']);
    await post(`${pos.url}/refund`, { sandboxUrl: sandbox.url, locationId: 'loc-std-001', externalId: 'POS-STD-1001' });
    const second = await post(`${pos.url}/refund`, { sandboxUrl: sandbox.url, locationId: 'loc-kiosk-001', externalId: 'POS-KIOSK-3001' });
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${second.body.sandbox.journalId}`)).body;
    expect(entry.findings.map((f: { code: string }) => f.code)).toContain('JTI_REUSED');
  });

  it('float-prices: the sandbox answers the menu update 400 VALIDATION_ERROR and changes no price', async () => {
    const { sandbox, pos } = await pair(['float-prices']);
    const answer = await post(`${pos.url}/menu`, { sandboxUrl: sandbox.url, locationId: 'loc-std-001', form: 'A', changes: [{ itemId: 'itm-margherita', price: 1250 }] });
    expect(answer.body.sandbox.status).toBe(400);
    expect(answer.body.sandbox.body.errors[0]).toEqual({ Code: 'VALIDATION_ERROR', Message: expect.stringContaining('Items[0].Prices[0].Price must be a whole number') });
    expect((await request(sandbox.app).get('/_sandbox/locations/loc-std-001/menu')).body.Items[0].Prices[0].Price).toBe(1150);
  });

  it('no-idempotency: a resend is answered with a new ExternalId and the sandbox finds EXTERNAL_ID_CHANGED', async () => {
    const { sandbox, pos } = await pair(['no-idempotency']);
    await post(`${pos.url}/decide`, { orderId: 'ord-b-1', decision: 'REJECTED' });
    await createOrder(sandbox.app, { template: 'standard', orderId: 'ord-b-1', posOrderUrl: pos.orderUrl });
    await orderReaches(sandbox.app, 'ord-b-1', 'REJECTED');
    await post(`${pos.url}/decide`, { orderId: 'ord-b-1', decision: 'ACCEPTED' });
    const resent = (await request(sandbox.app).post('/_sandbox/orders/ord-b-1/resend?wait=true')).body;
    expect(resent.Findings.map((f: { code: string }) => f.code)).toEqual(['EXTERNAL_ID_CHANGED']);
    const [delivery] = (await request(sandbox.app).get('/_sandbox/journal?direction=outbound&limit=1')).body;
    expect(delivery.findings[0].code).toBe('EXTERNAL_ID_CHANGED');
  });

  it('accept-bad-signature: an order with a forged token is accepted (a correct POS answers 401)', async () => {
    const { sandbox, pos } = await pair(['accept-bad-signature']);
    const forged = serviceToken(Math.floor(sandbox.clock.now / 1000), {}, 'another-key-of-enough-length-to-sign-with');
    const answer = await post(pos.orderUrl, ORDER, { authorization: `Bearer ${forged}`, 'x-service-locationid': 'loc-std-001' });
    expect(answer.status).toBe(200);
    expect(pos.pos.orders.size).toBe(1);
  });

  it('wrong-location: the status of the second brand’s order goes out with the first brand’s location; the sandbox refuses it and finds WRONG_BRAND_LOCATION', async () => {
    const { sandbox, pos } = await pair(['wrong-location']);
    await createOrder(sandbox.app, { template: 'hub', locationId: 'loc-hub-001-burgers', orderId: 'ord-w-1', posOrderUrl: pos.orderUrl });
    await orderReaches(sandbox.app, 'ord-w-1', 'ACCEPTED');
    await createOrder(sandbox.app, { template: 'hub', locationId: 'loc-hub-001-noodles', orderId: 'ord-w-2', posOrderUrl: pos.orderUrl });
    for (let tries = 0; tries < 100 && !pos.pos.orders.get('ord-w-2')?.statusCall; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pos.pos.orders.get('ord-w-2')!.statusCall!.status).toBe(400);
    expect((await request(sandbox.app).get('/_sandbox/orders/ord-w-2')).body.Status).toBe('AWAITING_STATUS');
    const [status] = (await request(sandbox.app).get('/_sandbox/journal?path=/order/status&status=400')).body;
    expect(status.findings.map((f: { code: string }) => f.code)).toEqual(['WRONG_BRAND_LOCATION']);
  });

  it('no-external-id: the order is tried three times and ends DELIVERY_FAILED', async () => {
    const { sandbox, pos } = await pair(['no-external-id']);
    const created = await createOrder(sandbox.app, { template: 'standard', posOrderUrl: pos.orderUrl });
    expect(created.body.Status).toBe('DELIVERY_FAILED');
    expect(created.body.Deliveries).toHaveLength(3);
    expect(created.body.Reason).toContain('ExternalId must be a non-empty string');
  });

  it('slow-ack: replies after the sandbox has given up, so the order ends DELIVERY_FAILED', async () => {
    const { sandbox, pos } = await pair(['slow-ack'], { slowAckMs: 300, attemptTimeoutMs: 100 });
    const created = await createOrder(sandbox.app, { template: 'standard', posOrderUrl: pos.orderUrl });
    expect(created.body).toMatchObject({ Status: 'DELIVERY_FAILED', Reason: '3 tries failed; the last: no answer within 100 ms' });
  });
});
