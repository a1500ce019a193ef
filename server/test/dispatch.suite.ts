/** Order delivery against a scripted POS over real HTTP: retries, timeouts, replies that do not deliver. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { closeServers, createOrder, listen, liveSandbox, scriptedPos } from './live.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStorage } from '../store/segment-storage.js';
import { PARTNER, sleeps, testSandbox } from './helpers.js';

afterEach(closeServers);
beforeEach(() => {
  sleeps.length = 0;
});

describe('order delivery', () => {
  it('delivers to a POS that answers 500 twice then 200 in exactly three tries of the same OrderId and RequestId', async () => {
    const pos = await scriptedPos([{ status: 500, body: { error: 'boom' } }, { status: 500 }, { status: 200, body: { ExternalId: 'X-1' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const created = await createOrder(sandbox.app, { template: 'standard' });

    expect(created.body).toMatchObject({ Status: 'AWAITING_STATUS', ExternalId: 'X-1' });
    expect(pos.received).toHaveLength(3);
    expect(new Set(pos.received.map((r) => r.body.OrderId))).toEqual(new Set([created.body.OrderId]));
    expect(new Set(pos.received.map((r) => r.headers['x-request-id']))).toEqual(new Set([created.body.Order.RequestId]));
    expect(pos.received.map((r) => r.headers['x-sandbox-attempt'])).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    expect(sleeps).toEqual([1000, 2000]);
    const entries = (await request(sandbox.app).get(`/_sandbox/journal?direction=outbound&order=${created.body.OrderId}`)).body.reverse();
    expect(entries.map((e: { response: { status: number }; delivery: object }) => [e.response.status, e.delivery])).toEqual([
      [500, { dispatch: 1, attempt: 1, of: 3, verdict: 'the POS answered 500; an order is delivered only by a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}' }],
      [500, { dispatch: 1, attempt: 2, of: 3, verdict: 'the POS answered 500; an order is delivered only by a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}' }],
      [200, { dispatch: 1, attempt: 3, of: 3, verdict: "delivered: ExternalId 'X-1', awaiting POST /order/status" }],
    ]);
    expect(entries[0].response.body).toEqual({ error: 'boom' });
  });

  it('reads a reply the POS sent gzipped, and redacts the key and the token it echoed in its Reason', async () => {
    const url = await listen((req: IncomingMessage, res: ServerResponse) => {
      req.resume().on('end', () => {
        const reason = `key ${PARTNER.nonProdKey} and ${req.headers.authorization}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ ExternalId: 'X-Z', Status: 'REJECTED', Reason: reason })));
      });
    });
    const sandbox = await liveSandbox({ posOrderUrl: url });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body).toMatchObject({ Status: 'REJECTED', ExternalId: 'X-Z' });
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal?direction=outbound&limit=1')).body;
    expect(entry.response.headers['content-encoding']).toBe('gzip');
    expect(entry.response.body.Reason).toMatch(/^key \[redacted\] and Bearer [\w-]+\.[\w-]+\.\[redacted\]$/);
  });

  it('names a coding it cannot read in the try, and the order fails', async () => {
    const url = await listen((req: IncomingMessage, res: ServerResponse) => req.resume().on('end', () => res.writeHead(200, { 'content-encoding': 'zstd' }).end('{"ExternalId":"X"}')));
    const sandbox = await liveSandbox({ posOrderUrl: url });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Status).toBe('DELIVERY_FAILED');
    expect(created.body.Deliveries[0].problem).toBe('the POS answered with Content-Encoding: zstd, which the sandbox does not read; send the reply plain, or as gzip, deflate or br');
  });

  it('ends DELIVERY_FAILED when the POS never answers: three tries, each cut at the timeout', async () => {
    const pos = await scriptedPos(['hang']);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url, dispatch: { attemptTimeoutMs: 150 } });
    const created = await createOrder(sandbox.app, { template: 'standard' });

    expect(pos.received).toHaveLength(3);
    expect(created.body).toMatchObject({ Status: 'DELIVERY_FAILED', Reason: '3 tries failed; the last: no answer within 150 ms' });
    expect(created.body.Deliveries.map((d: { problem: string }) => d.problem)).toEqual(Array(3).fill('no answer within 150 ms'));
    const [last] = (await request(sandbox.app).get('/_sandbox/journal?direction=outbound&limit=1')).body;
    expect(last.response).toMatchObject({ status: 0, error: 'no answer within 150 ms' });
  });

  it('says the POS is not listening when the connection is refused, and lets the order be resent', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-2' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: 'http://127.0.0.1:9/order' });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Status).toBe('DELIVERY_FAILED');
    expect(created.body.Reason).toBe('3 tries failed; the last: connection refused by 127.0.0.1:9: is the POS listening at http://127.0.0.1:9?');

    // The order keeps its URL; a resend of this one goes to the same place and fails the same way.
    const resent = await request(sandbox.app).post(`/_sandbox/orders/${created.body.OrderId}/resend?wait=true`);
    expect(resent.body.Status).toBe('DELIVERY_FAILED');
    expect(resent.body.Deliveries.map((d: { dispatch: number }) => d.dispatch)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(pos.received).toHaveLength(0);
  });

  it.each([
    [{ status: 200, body: {} }, 'ExternalId must be a non-empty string, got undefined'],
    [{ status: 200, body: { ExternalId: '  ' } }, 'ExternalId must be a non-empty string, got string "  "'],
    [{ status: 201, body: { ExternalId: 'X', Status: 'OK' } }, 'Status must be ACCEPTED or REJECTED, or left out to send POST /order/status later; got string "OK"'],
  ])('retries a 2xx reply that does not deliver the order: %j', async (reply, problem) => {
    const pos = await scriptedPos([reply]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(pos.received).toHaveLength(3);
    expect(created.body.Status).toBe('DELIVERY_FAILED');
    expect(created.body.Reason).toBe(`3 tries failed; the last: the POS's ${reply.status} reply does not deliver the order: ${problem}`);
  });

  it('retries a 2xx whose body is not JSON', async () => {
    const pos = await scriptedPos([{ status: 200 }, { status: 200, body: { ExternalId: 'X-3', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Deliveries[0].problem).toBe('the POS answered 200 with an empty body; expected a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}');
    expect(created.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'X-3' });
  });

  it('notes an unknown field in the reply as a finding, and delivers', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-4', Eta: 20 } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const created = await createOrder(sandbox.app, { template: 'standard' });
    expect(created.body.Status).toBe('AWAITING_STATUS');
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal?direction=outbound')).body;
    expect(entry.findings.map((f: { code: string }) => f.code)).toEqual(['UNKNOWN_FIELD']);
  });

  it('notes an ExternalId the POS already gave another order', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'SAME', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    await createOrder(sandbox.app, { template: 'standard' });
    const second = await createOrder(sandbox.app, { template: 'standard' });
    expect(second.body.Findings).toEqual([
      expect.objectContaining({ code: 'EXTERNAL_ID_REUSED', message: expect.stringContaining("ExternalId 'SAME' was already given to order ") }),
    ]);
  });
});

describe('an order the sandbox was delivering when it stopped', () => {
  it('is DELIVERY_FAILED after a restart on the same data file, and can be resent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-orders-'));
    let first: Awaited<ReturnType<typeof liveSandbox>> | undefined;
    try {
      const pos = await scriptedPos(['hang', { status: 200, body: { ExternalId: 'X-9', Status: 'ACCEPTED' } }]);
      first = await liveSandbox({ storage: fileStorage(join(dir, 'db.json')), posOrderUrl: pos.url, dispatch: { attemptTimeoutMs: 60_000 } });
      const started = await request(first.app).post('/_sandbox/orders').set('content-type', 'application/json').send('{"template":"standard","orderId":"ord-r-1"}');
      expect(started.body.Status).toBe('DISPATCHED');

      const second = await testSandbox({ storage: fileStorage(join(dir, 'db.json')), posOrderUrl: pos.url });
      const order = (await request(second.app).get('/_sandbox/orders/ord-r-1')).body;
      expect(order).toMatchObject({ Status: 'DELIVERY_FAILED', Reason: 'the sandbox stopped while the order was DISPATCHED; resend it' });
      const resent = await request(second.app).post('/_sandbox/orders/ord-r-1/resend?wait=true');
      expect(resent.body).toMatchObject({ Status: 'ACCEPTED', ExternalId: 'X-9' });
    } finally {
      // The first sandbox is still delivering (to a POS that hangs): let it finish before its folder goes.
      await closeServers();
      await first?.orders.settled();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
