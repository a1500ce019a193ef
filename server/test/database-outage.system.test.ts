/**
 * Two instances of a hosted sandbox on one database, and the database stopped as a crash would (every connection
 * cut) and started again, on a PostgreSQL server of this file's own. During the outage each instance says it is not
 * ready, the operator's health says why, and a partner's request gets a 503 in the envelope that names the database;
 * once the database is back, one of them leads the partner again and both serve it, with what was acknowledged
 * before the outage still there. Before, the lock connection lost was never made again: no instance ever led again,
 * and every request was a 503 until they were restarted.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PARTNER, signHs256 } from './test-identity.js';
import { serveHosted, stopServers } from './processes.js';
import { RUN_POSTGRES_TESTS, startPostgres, type PostgresServer } from './postgres.js';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import { instanceIdOf, waitForLeaders } from './leaders.js';
import { ownerOf } from '../hosted/placement.js';

const ADMIN = 'outage-admin-token-0001';
const OPERATOR = 'outage-operator-token-01';
const suite = RUN_POSTGRES_TESTS ? describe : describe.skip;

interface Instance {
  url: string;
  output: () => string;
}

let database: PostgresServer;
const instances: Instance[] = [];
/** The index of the instance that leads the partner before the outage. */
let leaderIndex = 0;

let jti = 0;
function token(): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'loc-std-001', jti: `outage-${process.pid}-${++jti}`, nbf: now - 5, exp: now + 600, iss: PARTNER.name, aud: SERVICE_AUDIENCE }, PARTNER.nonProdKey);
}

async function refund(base: string, externalId: string): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${base}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token()}`, 'x-service-locationid': 'loc-std-001', 'x-api-key': PARTNER.apiKey ?? '', 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ ExternalId: externalId }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function ready(base: string): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${base}/_sandbox/ready`);
  return { status: answer.status, body: await answer.json() };
}

/** Resolves once an instance's output, after `from` characters, holds `text`: the instance said it, no sleeping on it. */
function said(child: ChildProcess, output: () => string, from: number, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!output().slice(from).includes(text)) return;
      child.stdout!.off('data', check);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      child.stdout!.off('data', check);
      reject(new Error(`the instance did not say "${text}" in 20 s; it said:\n${output().slice(from)}`));
    }, 20_000);
    timer.unref();
    child.stdout!.on('data', check);
    check();
  });
}

const children: ChildProcess[] = [];
let dir: string;

beforeAll(async () => {
  if (!RUN_POSTGRES_TESTS) return;
  dir = mkdtempSync(join(tmpdir(), 'database-outage-'));
  const partners = join(dir, 'partners.json');
  writeFileSync(partners, JSON.stringify({ operatorToken: OPERATOR, partners: [{ name: PARTNER.name, nonProdKey: PARTNER.nonProdKey, adminToken: ADMIN }] }));
  database = await startPostgres({ durable: true });
  const url = await database.createDatabase('outage');
  for (let n = 0; n < 2; n++) {
    const started = await serveHosted(['--partners', partners, '--store', url, '--refund-delay-ms', '0', '--log-format', 'json', '--idle-ms', '0']);
    let out = started.banner;
    started.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    children.push(started.child);
    instances.push({ url: started.baseUrl, output: () => out });
  }
  // The one rendezvous hashing names leads (after a hand-over, when that is the second).
  const owner = ownerOf(PARTNER.name, children.map(instanceIdOf))!;
  await waitForLeaders(url, new Map([[PARTNER.name, owner]]), 20_000);
  leaderIndex = children.findIndex((child) => instanceIdOf(child) === owner);
}, 60_000);
afterAll(async () => {
  stopServers();
  await database?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function operatorHealth(base: string): Promise<{ status: number; body: { status: string; partners: Array<Record<string, unknown>> } }> {
  const answer = await fetch(`${base}/_sandbox/health`, { headers: { authorization: `Bearer ${OPERATOR}` } });
  return { status: answer.status, body: (await answer.json()) as { status: string; partners: Array<Record<string, unknown>> } };
}

suite('the database stopped and started again under two instances', () => {
  it('answers 503 while it is down, and leads the partner again once it is back, losing nothing acknowledged', async () => {
    for (const [n, instance] of instances.entries()) expect((await refund(instance.url, `POS-STD-100${n + 1}`)).status).toBe(200);

    // The leader says when it stops leading.
    const mark = instances[leaderIndex]!.output().length;
    await database.halt();
    await said(children[leaderIndex]!, instances[leaderIndex]!.output, mark, "no longer leads partner 'demo-pos': the lock connection to the database was lost");

    for (const instance of instances) {
      expect(await ready(instance.url)).toEqual({ status: 503, body: { ready: false, reason: 'the store does not answer' } });
      const answer = await refund(instance.url, 'POS-STD-1003');
      expect(answer).toEqual({
        status: 503,
        body: { errors: [{ code: 'SERVICE_UNAVAILABLE', message: "the sandbox's database does not answer, so no instance leads this partner just now; send it again in a few seconds (the operator's health says why)" }] },
      });
      const health = await operatorHealth(instance.url);
      expect(health.status).toBe(503);
      expect(health.body.status).toBe('unavailable');
      expect(health.body.partners).toEqual([
        { name: PARTNER.name, status: 'unavailable', role: 'follows', storeKind: 'postgres', storeLatencyMs: expect.any(Number), storeError: expect.stringMatching(/^the postgres store did not answer: /) },
      ]);
    }

    const back = instances.map((instance) => instance.output().length);
    await database.restart();
    await Promise.race(instances.map((instance, n) => said(children[n]!, instance.output, back[n]!, "leads partner 'demo-pos'")));

    for (const instance of instances) {
      expect(await ready(instance.url)).toEqual({ status: 200, body: { ready: true } });
    }
    // The one that follows names the one that leads.
    const healths = await Promise.all(instances.map(async (instance) => (await operatorHealth(instance.url)).body));
    const leading = healths.find((health) => health.partners[0]!.role === 'leads') as { instanceId?: string } | undefined;
    const following = healths.find((health) => health.partners[0]!.role === 'follows');
    expect(following?.partners[0]).toEqual({ name: PARTNER.name, status: 'ok', role: 'follows', storeKind: 'postgres', storeLatencyMs: expect.any(Number), leader: leading?.instanceId });
    expect((await refund(instances[0]!.url, 'POS-STD-1003')).status).toBe(200);
    expect((await refund(instances[1]!.url, 'POS-STD-1004')).status).toBe(200);
    const refunds = (await (await fetch(`${instances[1]!.url}/_sandbox/refunds`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as Array<{ externalId: string }>;
    expect(refunds.map((r) => r.externalId).sort()).toEqual(['POS-STD-1001', 'POS-STD-1002', 'POS-STD-1003', 'POS-STD-1004']);
  }, 60_000);
});
