/**
 * Orders aimed at a POS that takes the connection and never answers: 3,000 POST /_sandbox/orders, 8 at a time,
 * against a real sandbox process. Its open files stay under 1,000, the orders past deliveriesInFlight are answered 429
 * in the control envelope, the health answers within 2 s throughout, and every delivery taken ends, failed at its
 * deadline, with each of its tries in the journal. Then the same against a hosted sandbox of two partners at the
 * hosted defaults (docs/hosting.md): each partner's rate and deliveries bounded, the process's files too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, serveHosted, stopServers } from './processes.js';

const ORDERS = 3000;
const AT_ONCE = 8;
const TIMEOUT_MS = 1000;

let silent: Server;
const held = new Set<Socket>();
let sandbox: { baseUrl: string; pid: number };
let posOrderUrl: string;

beforeAll(async () => {
  // Takes each connection and each request, and answers none.
  silent = createServer(() => undefined);
  silent.on('connection', (socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  posOrderUrl = `http://127.0.0.1:${port}/order`;
  // Room for every entry of the run (3,000 orders, their tries, the polls), so that none is lost to the journal's bound.
  const started = await serve(['--pos-order-url', posOrderUrl, '--delivery-timeout-ms', String(TIMEOUT_MS), '--journal-limit', '20000']);
  sandbox = { baseUrl: started.baseUrl, pid: started.child.pid! };
}, 30_000);

afterAll(async () => {
  stopServers();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const openFiles = () => readdirSync(`/proc/${sandbox.pid}/fd`).length;

let mostDelivering = 0;

/** How long the health took to answer; what it says of the deliveries under way is kept. */
async function healthMs(): Promise<number> {
  const began = performance.now();
  const answer = await fetch(`${sandbox.baseUrl}/_sandbox/health`);
  const health = (await answer.json()) as { quota: { inUse: { deliveries: number } } };
  expect(answer.status).toBe(200);
  mostDelivering = Math.max(mostDelivering, health.quota.inUse.deliveries);
  return performance.now() - began;
}

describe('orders to a POS that never answers', () => {
  it('hold fewer than 1,000 open files, are refused 429 past the quota, leave the health answering, and all end', async () => {
    const statuses = new Map<number, number>();
    const refusals = new Set<string>();
    const accepted: string[] = [];
    let mostFiles = openFiles();
    let slowestHealth = 0;
    let sent = 0;
    const lane = async () => {
      while (sent < ORDERS) {
        sent++;
        const answer = await fetch(`${sandbox.baseUrl}/_sandbox/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"template":"standard","locationId":"loc-std-001"}' });
        const body = (await answer.json()) as { OrderId?: string; errors?: Array<{ code: string; message: string }> };
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 202) accepted.push(body.OrderId!);
        else refusals.add(`${answer.status} ${answer.headers.get('retry-after')} ${body.errors?.map((error) => `${error.code}: ${error.message}`).join('; ')}`);
        if (sent % 100 === 0) {
          mostFiles = Math.max(mostFiles, openFiles());
          slowestHealth = Math.max(slowestHealth, await healthMs());
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, lane));
    mostFiles = Math.max(mostFiles, openFiles());
    expect([...statuses.keys()].sort()).toEqual([202, 429]);
    expect(statuses.get(202)! + statuses.get(429)!).toBe(ORDERS);
    expect([...refusals]).toEqual([
      "429 1 TOO_MANY_REQUESTS: partner 'demo-pos' has 500 orders being delivered to the POS, the most at once (deliveriesInFlight: 500), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); nothing was created or sent: send it again once one ends (each try ends within the delivery timeout)",
    ]);
    expect({ mostFiles: mostFiles < 1000, slowestHealth: slowestHealth < 2000, delivering: mostDelivering > 0 && mostDelivering <= 500 }).toEqual({ mostFiles: true, slowestHealth: true, delivering: true });

    // Every order taken ends: its three tries time out, and it is DELIVERY_FAILED, each try journaled.
    for (;;) {
      const underWay = (await (await fetch(`${sandbox.baseUrl}/_sandbox/orders?status=DISPATCHED&limit=1`)).json()) as unknown[];
      if (underWay.length === 0) break;
      slowestHealth = Math.max(slowestHealth, await healthMs());
      // The state is asked for again a little later: each delivery ends at its own deadline.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const failed: string[] = [];
    for (let after: string | undefined; ; ) {
      const page = (await (await fetch(`${sandbox.baseUrl}/_sandbox/orders?status=DELIVERY_FAILED&limit=1000${after ? `&after=${after}` : ''}`)).json()) as Array<{ OrderId: string; Deliveries?: unknown[] }>;
      failed.push(...page.map((order) => order.OrderId));
      if (page.length < 1000) break;
      after = page.at(-1)!.OrderId;
    }
    expect(failed.sort()).toEqual([...accepted].sort());
    expect(slowestHealth).toBeLessThan(2000);
    // Each try of an order taken is in the journal: a sample across the run, first to last.
    const sample = accepted.filter((_id, at) => at % Math.ceil(accepted.length / 20) === 0 || at === accepted.length - 1);
    const tries = await Promise.all(sample.map(async (id) => ((await (await fetch(`${sandbox.baseUrl}/_sandbox/journal?order=${id}&direction=outbound`)).json()) as unknown[]).length));
    expect(tries).toEqual(sample.map(() => 3));
  }, 120_000);
});

describe('orders of two hosted partners to a POS that never answers', () => {
  it("are held to the hosted defaults: each partner's rate and 50 deliveries, fewer than 1,000 open files, the health answering, all ending", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'delivery-bounds-hosted-'));
    const loopback = { allow: ['http://127.0.0.1:*'], allowNetworks: ['127.0.0.0/8'] };
    const partners = ['north-pos', 'south-pos'].map((name) => ({ name, nonProdKey: `${name}-nonprod-key-`.padEnd(40, 'k'), adminToken: `${name}-admin-token-`.padEnd(24, 't'), posOrderUrl, egress: loopback }));
    writeFileSync(join(dir, 'partners.json'), JSON.stringify({ partners }));
    try {
      const hosted = await serveHosted(['--partners', join(dir, 'partners.json'), '--memory', '--report-dir', join(dir, 'reports'), '--delivery-timeout-ms', String(TIMEOUT_MS)]);
      const pid = hosted.child.pid!;
      const call = (admin: string, path: string, init: RequestInit = {}) => fetch(`${hosted.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' } });
      const statuses = new Map<number, number>();
      const refusals = new Set<string>();
      let mostFiles = 0;
      let slowestHealth = 0;
      let mostDelivering = 0;
      const sample = async (admin: string) => {
        mostFiles = Math.max(mostFiles, readdirSync(`/proc/${pid}/fd`).length);
        const began = performance.now();
        const answer = await call(admin, '/_sandbox/health');
        const health = (await answer.json()) as { quota?: { inUse: { deliveries: number } } };
        slowestHealth = Math.max(slowestHealth, performance.now() - began);
        // The health counts against the partner's rate as any control call: a 429 is an answer too, without the figures.
        expect([200, 429]).toContain(answer.status);
        if (answer.status === 200) mostDelivering = Math.max(mostDelivering, health.quota!.inUse.deliveries);
      };
      let sent = 0;
      const lane = async (admin: string) => {
        while (sent < ORDERS) {
          sent++;
          const answer = await call(admin, '/_sandbox/orders', { method: 'POST', body: '{"template":"standard","locationId":"loc-std-001"}' });
          const body = (await answer.json()) as { errors?: Array<{ code: string; message: string }> };
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          // Which quota refused, its partner's name left out: the rate, or the deliveries.
          if (answer.status === 429) refusals.add(body.errors![0]!.message.replace(/partner '[a-z]+-pos' has \d+/, "partner 'P' has N").replace(/ in [\d.]+ s\b.*$/, ''));
          if (sent % 100 === 0) await sample(admin);
        }
      };
      await Promise.all(partners.flatMap((partner) => Array.from({ length: AT_ONCE / 2 }, () => lane(partner.adminToken))));
      expect([...statuses.keys()].sort()).toEqual([202, 429]);
      expect(statuses.get(202)! + statuses.get(429)!).toBe(ORDERS);
      expect({ mostFiles: mostFiles < 1000, slowestHealth: slowestHealth < 2000, delivering: mostDelivering <= 50 }).toEqual({ mostFiles: true, slowestHealth: true, delivering: true });
      expect([...refusals].filter((message) => !/sent more than 20 requests a second|deliveriesInFlight: 50\)/.test(message))).toEqual([]);
      // Every order taken ends.
      for (const partner of partners) {
        for (;;) {
          const underWay = (await (await call(partner.adminToken, '/_sandbox/orders?status=DISPATCHED&limit=1')).json()) as unknown[];
          if (Array.isArray(underWay) && underWay.length === 0) break;
          await sample(partner.adminToken);
          // The state is asked for again a little later: each delivery ends at its own deadline.
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      expect(slowestHealth).toBeLessThan(2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
