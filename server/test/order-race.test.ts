/**
 * The order state machine is linearizable: status calls that race the delivery still under way (and each
 * other) decide an order once. The POS here fires its status calls before it even answers the delivery, as
 * a hasty POS does, under a plain delivery, the duplicate-delivery drill and the lost-acknowledgement drill.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { closeServers, liveSandbox, listen } from './live.js';
import { cleanHeaders, posToken } from './helpers.js';

type Drill = 'plain' | 'duplicate' | 'lost-ack';
const DRILLS: Drill[] = ['plain', 'duplicate', 'lost-ack'];
const ROUNDS = 200;
/** Status calls the POS fires while its reply to the delivery is still unread, and after it. */
const EARLY_CALLS = 3;

let sandbox: Awaited<ReturnType<typeof liveSandbox>>;
/** Every status call the POS made, by OrderId: the HTTP status the sandbox answered. */
const answered = new Map<string, Array<Promise<number>>>();

function sendStatus(orderId: string, locationId: string, decision: 'ACCEPTED' | 'REJECTED'): void {
  // supertest against the live URL: the sandbox's one listening socket, as a POS reaches it (request(app) would open
  // a server per call, about a third of this test's CPU).
  const call = request(sandbox.url)
    .post('/v2/order/status')
    .set({ ...cleanHeaders(posToken({ sub: locationId })), 'x-service-locationid': locationId })
    .send(JSON.stringify({ ExternalId: `X-${orderId}`, Status: decision }))
    .then((response) => response.status);
  answered.set(orderId, [...(answered.get(orderId) ?? []), call]);
}

beforeAll(async () => {
  const pos = await listen((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const order = JSON.parse(text) as { OrderId: string; LocationId: string };
      // Fired before the reply leaves: each waits for the delivery under way, and only one may win.
      for (let i = 0; i < EARLY_CALLS; i++) sendStatus(order.OrderId, order.LocationId, i % 2 === 0 ? 'ACCEPTED' : 'REJECTED');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: `X-${order.OrderId}` }));
    });
  });
  sandbox = await liveSandbox({ posOrderUrl: `${pos}/order`, dispatch: { attemptTimeoutMs: 150, retryDelaysMs: [0] } });
});

afterAll(closeServers);

describe('a status call racing the delivery of its order', () => {
  it(`decides the order exactly once in ${ROUNDS} rounds; every other status is 409 INVALID_STATE`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const drill = DRILLS[round % DRILLS.length]!;
      const orderId = `race-${round}`;
      if (drill !== 'plain') {
        const kind = drill === 'duplicate' ? 'duplicate' : 'hang';
        await request(sandbox.url).post('/_sandbox/faults').send([{ id: `race-${round}`, match: { direction: 'outbound' }, action: { kind }, times: 1 }]).expect(201);
      }
      await request(sandbox.url).post('/_sandbox/orders?wait=true').send({ template: 'standard', locationId: 'loc-std-001', orderId }).expect(201);
      // One more, well after the delivery settled.
      sendStatus(orderId, 'loc-std-001', 'ACCEPTED');
      const statuses = await Promise.all(answered.get(orderId)!);
      const order = (await request(sandbox.url).get(`/_sandbox/orders/${orderId}`)).body as { Status: string; History: Array<{ by: string }> };
      const decisions = order.History.filter((change) => change.by === 'pos-status').length;
      const wins = statuses.filter((status) => status === 200).length;
      const others = [...new Set(statuses.filter((status) => status !== 200))];
      outcomes.push(`${drill}: ${wins} won, ${decisions} decision${decisions === 1 ? '' : 's'}, others ${others.join('/') || 'none'}`);
    }
    const expected = DRILLS.map((drill) => `${drill}: 1 won, 1 decision, others 409`);
    expect([...new Set(outcomes)].sort()).toEqual(expected.sort());
  }, 60_000);
});
