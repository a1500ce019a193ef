/** Outbound faults on order delivery, against the reference POS and a scripted one over real HTTP. */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import type { FaultRule } from '../faults/fault-rule-types.js';
import { DEFAULT_RACE_WAIT_MS } from '../orders/order-desk.js';
import { sleeps, testSandbox } from './helpers.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeServers, createOrder, listen, liveReferencePos, liveSandbox, orderReaches, scriptedPos } from './live.js';

afterEach(closeServers);
beforeEach(() => {
  sleeps.length = 0;
});

async function addFaults(app: Express, rules: FaultRule[]) {
  const added = await request(app).post('/_sandbox/faults').set('content-type', 'application/json').send(JSON.stringify(rules));
  expect(added.status).toBe(201);
}

async function outboundEntries(app: Express, orderId: string) {
  return (await request(app).get(`/_sandbox/journal?direction=outbound&order=${orderId}`)).body.reverse();
}

/** A sandbox delivering to the reference POS, which answers with its decision in the reply. */
async function sandboxWithReferencePos(bugs: Parameters<typeof liveReferencePos>[2] = {}) {
  const sandbox = await liveSandbox({ dispatch: { attemptTimeoutMs: 1_000 } });
  const pos = await liveReferencePos(sandbox.url, () => sandbox.clock.now, { statusInReply: true, ...bugs });
  return { sandbox, pos, order: (body: Record<string, unknown> = {}) => createOrder(sandbox.app, { template: 'standard', posOrderUrl: pos.orderUrl, ...body }) };
}

describe('outbound token faults', () => {
  it.each([
    ['bad-signature', 'token rejected: invalid signature', {}],
    ['expired-token', 'token rejected: jwt expired', { exp: expect.any(Number) }],
    ['wrong-audience', 'token rejected: jwt audience invalid. expected: demo-pos', { aud: 'another-pos' }],
  ] as const)('%s: the reference POS refuses every try with 401 and creates nothing; a clean resend is accepted', async (kind, reason, claims) => {
    const { sandbox, pos, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind }, times: 3 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'DELIVERY_FAILED' });
    expect(pos.pos.orders.size).toBe(0);
    const entries = await outboundEntries(sandbox.app, created.body.OrderId);
    expect(entries).toHaveLength(3);
    expect(created.body.Deliveries[0].problem).toMatch(/^the POS refused (a token signed with another key|an expired token|a token for another POS \(aud another-pos\)) \(fault rule fault-1\) with 401, as it must$/);
    for (const entry of entries) {
      expect(entry.response.status).toBe(401);
      expect(entry.response.body.errors[0].message).toContain(reason);
      expect(entry.fault).toEqual({ rule: 'fault-1', kind, source: 'api' });
      expect(entry.token.claims).toMatchObject(claims);
    }
    if (kind === 'expired-token') expect(entries[0].token.claims.exp).toBeLessThan(sandbox.clock.now / 1000 - 60);

    const resent = await request(sandbox.app).post(`/_sandbox/orders/${created.body.OrderId}/resend?wait=true`);
    expect(resent.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'REF-00001' });
    expect(pos.pos.orders.get(created.body.OrderId)).toMatchObject({ deliveries: 1 });
  });

  it('shows the check can fail: a POS with --bug accept-bad-signature creates the order from a forged token, and the order says so', async () => {
    const { sandbox, pos, order } = await sandboxWithReferencePos({ bugs: ['accept-bad-signature'] });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'bad-signature' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED' });
    expect(created.body.Findings).toEqual([
      {
        code: 'FORGED_TOKEN_ACCEPTED',
        section: '§5, sandbox rule',
        message: 'the POS accepted an order carrying a token signed with another key (fault rule fault-1); it must answer 401 and create nothing',
      },
    ]);
    expect((await outboundEntries(sandbox.app, created.body.OrderId))[0]).toMatchObject({ response: { status: 200 }, fault: { kind: 'bad-signature' } });
    expect(pos.pos.orders.size).toBe(1);
  });

  it('spoils only the try it fires on: a forged first try, then a clean second one is accepted', async () => {
    const { sandbox, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'bad-signature' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED' });
    expect(created.body.Deliveries.map((d: { httpStatus: number; fault?: string }) => [d.httpStatus, d.fault])).toEqual([
      [401, 'fault-1'],
      [200, undefined],
    ]);
  });

  it('spoils only the order it names: an order delivered first leaves the rule unused for the one it is for', async () => {
    const { sandbox, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ id: 'for-07', match: { direction: 'outbound', orderId: 'ord-07' }, action: { kind: 'bad-signature' }, times: 1 }]);
    const other = await order();
    expect(other.body.Deliveries.map((d: { httpStatus: number; fault?: string }) => [d.httpStatus, d.fault])).toEqual([[200, undefined]]);
    const named = await order({ orderId: 'ord-07' });
    expect(named.body.Deliveries.map((d: { httpStatus: number; fault?: string }) => [d.httpStatus, d.fault])).toEqual([
      [401, 'for-07'],
      [200, undefined],
    ]);
  });
});

describe('outbound duplicate delivery', () => {
  it('delivers the same order twice; the reference POS answers the same ExternalId to both and keeps one order', async () => {
    const { sandbox, pos, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'duplicate' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'REF-00001' });
    expect(created.body.Findings).toBeUndefined();
    const entries = await outboundEntries(sandbox.app, created.body.OrderId);
    expect(entries.map((e: { delivery: { copy: number }; response: { body: unknown }; request: { headers: Record<string, string> } }) => [e.delivery.copy, e.response.body, e.request.headers['x-request-id']])).toEqual([
      [1, { ExternalId: 'REF-00001', Status: 'ACCEPTED' }, created.body.Order.RequestId],
      [2, { ExternalId: 'REF-00001', Status: 'ACCEPTED' }, created.body.Order.RequestId],
    ]);
    expect(entries[0].token.sha256).not.toBe(entries[1].token.sha256);
    expect([...pos.pos.orders.values()]).toEqual([expect.objectContaining({ ExternalId: 'REF-00001', deliveries: 2 })]);
  });

  it('records DUPLICATE_NOT_IDEMPOTENT when a POS (--bug no-idempotency) answers the copy with another ExternalId', async () => {
    const { sandbox, order } = await sandboxWithReferencePos({ bugs: ['no-idempotency'] });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'duplicate' } }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'REF-00001' });
    expect(created.body.Findings).toEqual([
      {
        code: 'DUPLICATE_NOT_IDEMPOTENT',
        section: '§9 (RequestId), sandbox rule',
        message:
          "the same delivery (same OrderId and RequestId) sent twice was answered ExternalId 'REF-00001', then 'REF-00002'; a duplicate must get the same ExternalId, and create no second order",
      },
    ]);
  });
});

describe('outbound duplicate delivery, both copies at once', () => {
  it('catches a POS that looks the OrderId up only after a slow step: the copies race and get two ExternalIds', async () => {
    const sandbox = await liveSandbox({ dispatch: { attemptTimeoutMs: 1_000 } });
    const known = new Map<string, string>();
    let made = 0;
    const racy = await listen((req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', async () => {
        const { OrderId } = JSON.parse(text) as { OrderId: string };
        const seen = known.get(OrderId);
        await new Promise((resolve) => setTimeout(resolve, 30)); // booking in its database
        const externalId = seen ?? `RACY-${++made}`;
        known.set(OrderId, externalId);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: externalId, Status: 'ACCEPTED' }));
      });
    });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'duplicate' }, times: 1 }]);
    const created = await createOrder(sandbox.app, { template: 'standard', posOrderUrl: racy });
    expect(created.body.Findings).toEqual([expect.objectContaining({ code: 'DUPLICATE_NOT_IDEMPOTENT' })]);
    expect(made).toBe(2);
  });
});

describe('outbound network faults', () => {
  it('hang: the POS gets the order but its reply is withheld; the retry is answered with the same ExternalId', async () => {
    const { sandbox, pos, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'hang' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'REF-00001' });
    const [withheld, retried] = await outboundEntries(sandbox.app, created.body.OrderId);
    expect(withheld.response).toMatchObject({ status: 200, error: "no answer within 1000 ms: fault rule fault-1 withheld the POS's reply (200)" });
    expect(retried.response.body).toEqual({ ExternalId: 'REF-00001', Status: 'ACCEPTED' });
    expect(sleeps).toEqual([1000, 1000]);
    expect(pos.pos.orders.get(created.body.OrderId)).toMatchObject({ deliveries: 2 });
  });

  it('hang with the status sent afterwards: the early status is refused with the reason, and the POS sends it again on the retry', async () => {
    const HANG_MS = 1_234;
    // The withheld reply is waited out for real (longer than a status call waits for a delivery), the backoff is not.
    // The status call waits 250 ms, not the default 2 s, so the hang is 800 ms, not 2.3 s: the same order of events.
    const sleep = (ms: number) => (ms === HANG_MS ? new Promise<void>((resolve) => setTimeout(resolve, 800)) : Promise.resolve());
    const sandbox = await liveSandbox({ dispatch: { attemptTimeoutMs: HANG_MS }, sleep, raceWaitMs: 250 });
    const pos = await liveReferencePos(sandbox.url, () => sandbox.clock.now);
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'hang' }, times: 1 }]);
    const created = await createOrder(sandbox.app, { template: 'standard', posOrderUrl: pos.orderUrl, orderId: 'ord-lost-ack' });
    expect(created.body).toMatchObject({ ExternalId: 'REF-00001' });
    await orderReaches(sandbox.app, 'ord-lost-ack', 'ACCEPTED');
    const statusCalls = (await request(sandbox.app).get('/_sandbox/journal?path=/order/status')).body.reverse();
    expect(statusCalls.map((entry: { response: { status: number } }) => entry.response.status)).toEqual([400, 200]);
    expect(statusCalls[0].response.body.errors[0].message).toBe(
      "no order with ExternalId 'REF-00001' at location 'loc-std-001'; ExternalId is the id the POS returned when the order was delivered. " +
        'The sandbox has not read the reply to order ord-lost-ack yet (still being delivered), so it cannot know that ExternalId: send the status again once the delivery settles',
    );
  });

  it('delay as long as the timeout: the try times out without reaching the POS, and the retry delivers', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url, dispatch: { attemptTimeoutMs: 500 } });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'delay', ms: 800 }, times: 1 }]);
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'X-1' });
    expect(created.body.Deliveries[0].problem).toBe('no answer within 500 ms: fault rule fault-1 held the order 800 ms, so it never left');
    expect(pos.received).toHaveLength(1);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('delay shorter than the timeout: the order is held, then delivered on the same try', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'delay', ms: 300 } }]);
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Deliveries).toHaveLength(1);
    expect(sleeps).toEqual([300]);
  });

  it('drop: the connection is cut halfway; the POS creates nothing from it, and the retry is accepted', async () => {
    const { sandbox, pos, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'drop' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED' });
    expect(created.body.Deliveries[0].problem).toMatch(/^fault rule fault-1 dropped the connection after \d+ of \d+ bytes of the order$/);
    expect(pos.pos.orders.get(created.body.OrderId)).toMatchObject({ deliveries: 1 });
  });

  it('malformed: the POS gets a body that is not JSON and answers 400; the retry is accepted', async () => {
    const { sandbox, pos, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'malformed' }, times: 1 }]);
    const created = await order();
    expect(created.body).toMatchObject({ Status: 'ACCEPTED' });
    const [broken] = await outboundEntries(sandbox.app, created.body.OrderId);
    expect(broken.response.status).toBe(400);
    expect(broken.request.bodyText).toBeDefined();
    expect(pos.pos.orders.get(created.body.OrderId)).toMatchObject({ deliveries: 1 });
  });

  it('status: a gateway answers 503, the order never reaches the POS, and the sandbox retries', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound', path: '/' }, action: { kind: 'status', status: 503 }, times: 2 }]);
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Deliveries.map((d: { httpStatus: number; problem?: string }) => [d.httpStatus, d.problem])).toEqual([
      [503, 'answered 503 by fault rule fault-1; the order did not reach the POS'],
      [503, 'answered 503 by fault rule fault-1; the order did not reach the POS'],
      [200, undefined],
    ]);
    expect(pos.received).toHaveLength(1);
  });

  it('rate-limit: a 429 with Retry-After makes the sandbox wait that long before the next try', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'rate-limit', retryAfter: 5 }, times: 1 }]);
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body).toMatchObject({ Status: 'ACCEPTED' });
    expect(sleeps).toEqual([5000]);
  });

  it('applies to resends too, and only to the location it names', async () => {
    const { sandbox, order } = await sandboxWithReferencePos();
    await addFaults(sandbox.app, [{ match: { direction: 'outbound', locationId: 'loc-kiosk-001' }, action: { kind: 'status', status: 500 } }]);
    expect((await order()).body.Status).toBe('ACCEPTED');
    const kiosk = await order({ template: 'kiosk' });
    expect(kiosk.body.Status).toBe('DELIVERY_FAILED');
    await request(sandbox.app).delete('/_sandbox/faults');
    await addFaults(sandbox.app, [{ match: { direction: 'outbound' }, action: { kind: 'status', status: 502 }, times: 1 }]);
    const resent = await request(sandbox.app).post(`/_sandbox/orders/${kiosk.body.OrderId}/resend?wait=true`);
    expect(resent.body.Deliveries.filter((d: { dispatch: number }) => d.dispatch === 2).map((d: { httpStatus: number }) => d.httpStatus)).toEqual([502, 200]);
  });
});

describe('a status call racing an unread reply', () => {
  // The tests above shorten the wait; this holds the default, on fake timers, so it costs no 2 s.
  it('waits 2 s by default for the delivery under way, then answers with that delivery named', async () => {
    const sandbox = await testSandbox({ posOrderUrl: 'http://127.0.0.1:9/order' });
    sandbox.orders.useDelivery(() => new Promise(() => undefined)); // a reply never read
    const created = (await request(sandbox.app).post('/_sandbox/orders').send({ template: 'standard', locationId: 'loc-std-001' }).expect(202)).body as { OrderId: string; LocationId: string };
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      let answered = false;
      const lookup = sandbox.orders.lookupForCall('REF-UNREAD', created.LocationId).finally(() => (answered = true));
      await jest.advanceTimersByTimeAsync(DEFAULT_RACE_WAIT_MS - 1);
      expect(answered).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(await lookup).toEqual({ elsewhere: undefined, delivering: [created.OrderId] });
      expect(DEFAULT_RACE_WAIT_MS).toBe(2_000);
    } finally {
      jest.useRealTimers();
    }
  });
});
