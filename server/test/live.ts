/** Real HTTP for the order tests: a sandbox and a reference POS (or a scripted stand-in) on loopback ports. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { createReferencePos } from '../../reference-pos/app.js';
import type { Bug } from '../../reference-pos/bugs.js';
import { fixtures, PARTNER, testSandbox, type TestSandboxOptions } from './helpers.js';

export { closedPort, closeServers, listen } from './loopback.js';
import { listen } from './loopback.js';

/** A test sandbox listening on a port, with the same clock as the POS it talks to. */
export async function liveSandbox(options: TestSandboxOptions = {}) {
  const sandbox = await testSandbox(options);
  const url = await listen(sandbox.app);
  return { ...sandbox, url };
}

/** The reference POS on a port, talking to `sandboxUrl`, on the sandbox's clock. */
export async function liveReferencePos(
  sandboxUrl: string,
  clock: () => number,
  options: { bugs?: Bug[]; statusInReply?: boolean; slowAckMs?: number } = {},
) {
  const pos = createReferencePos({
    identity: { posName: PARTNER.name, key: PARTNER.nonProdKey, apiKey: PARTNER.apiKey },
    sandboxUrl,
    menus: fixtures.menus,
    locations: fixtures.locations,
    bugs: new Set(options.bugs ?? []),
    statusInReply: options.statusInReply,
    slowAckMs: options.slowAckMs,
    clock,
  });
  const url = await listen(pos);
  return { pos, url, orderUrl: `${url}/order` };
}

/** A stand-in POS that answers each delivery with the next scripted reply (`hang` never answers) and keeps what it received. */
export async function scriptedPos(replies: Array<{ status: number; body?: unknown } | 'hang'>) {
  const received: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
  const url = await listen((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      const reply = replies[Math.min(received.length, replies.length) - 1]!;
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  return { url, received };
}

/** POST /_sandbox/orders?wait=true: creates an order and answers once its delivery has settled. */
export async function createOrder(app: Express, body: Record<string, unknown>) {
  return request(app).post('/_sandbox/orders?wait=true').set('content-type', 'application/json').send(JSON.stringify(body));
}

/** Polls the sandbox until the order reaches `status` (a POS status call lands after the delivery settles). */
export async function orderReaches(app: Express, orderId: string, status: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 100; tries++) {
    const order = (await request(app).get(`/_sandbox/orders/${orderId}`)).body as Record<string, unknown>;
    if (order.Status === status) return order;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const order = (await request(app).get(`/_sandbox/orders/${orderId}`)).body as Record<string, unknown>;
  throw new Error(`order ${orderId} is ${String(order.Status)}, never ${status}: ${JSON.stringify(order.History)}`);
}
