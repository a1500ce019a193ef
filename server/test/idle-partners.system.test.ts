/**
 * Idle partners cost nothing (serve --partners --store --idle-ms): real processes on a real PostgreSQL. No partner's
 * sandbox is made at start; the first request makes it, on the instance rendezvous hashing names, whichever instance
 * the client called; after the idle time with nothing under way it is put away, its state in the store, and made
 * again at the next request with that state.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import pg from 'pg';
import { ownerOf } from '../hosted/placement.js';
import { serveHosted, stopServers } from './processes.js';
import { RUN_POSTGRES_TESTS, testDatabase } from './postgres.js';
import { instanceIdOf } from './leaders.js';
import { signHs256, validClaims } from './test-identity.js';

const suite = RUN_POSTGRES_TESTS ? describe : describe.skip;
const PARTNERS = [...Array(40)].map((_, i) => `idle-pos-${String(i).padStart(2, '0')}`);
const KEY = 'idle-nonprod-key-'.padEnd(40, 'i');
const OPERATOR = 'idle-operator-token-0001';
const admin = (partner: string) => `idle-admin-${partner}-token`;

jest.setTimeout(60_000);
let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idle-partners-'));
  file = join(dir, 'partners.json');
  writeFileSync(file, JSON.stringify({ operatorToken: OPERATOR, partners: PARTNERS.map((name) => ({ name, nonProdKey: KEY, adminToken: admin(name) })) }));
});
afterEach(stopServers);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let jti = 0;
async function refund(base: string, partner: string, externalId: string): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const token = signHs256({ alg: 'HS256', typ: 'JWT' }, { ...validClaims({ iss: partner, sub: 'loc-std-001', nbf: now - 5, exp: now + 600 }), jti: `idle-${process.pid}-${++jti}` }, KEY);
  const answer = await fetch(`${base}/v2/order/refund`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'content-type': 'application/json' }, body: JSON.stringify({ ExternalId: externalId }) });
  await answer.arrayBuffer();
  return answer.status;
}

async function metric(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const families = parsePrometheusTextFormat(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${OPERATOR}` } })).text()) as Array<{ name: string; metrics: Array<{ labels?: Record<string, string>; value: string }> }>;
  const series = families.find((family) => family.name === name)?.metrics.filter((one) => Object.entries(labels).every(([key, value]) => one.labels?.[key] === value)) ?? [];
  return series.reduce((sum, one) => sum + Number(one.value), 0);
}

async function leaderRow(database: string, partner: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query<{ instance_id: string }>('SELECT instance_id FROM sandbox_leaders WHERE partner = $1', [partner])).rows[0]?.instance_id;
  } finally {
    await client.end();
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

suite('idle partners', () => {
  it('makes no sandbox at start, makes one at its first request, puts it away when idle, and finds its state again', async () => {
    const database = await testDatabase('idle');
    const { baseUrl } = await serveHosted(['--partners', file, '--store', database, '--idle-ms', '800', '--refund-delay-ms', '0']);
    expect([await metric(baseUrl, 'pos_sandbox_partners'), await metric(baseUrl, 'pos_sandbox_partners_led')]).toEqual([40, 0]);
    const partner = PARTNERS[7]!;
    expect(await refund(baseUrl, partner, 'IDLE-1')).toBe(200);
    expect(await metric(baseUrl, 'pos_sandbox_partners_led')).toBe(1);
    // The operator's health says which are asleep, and answers 200: asleep is not unavailable.
    const health = await fetch(`${baseUrl}/_sandbox/health`, { headers: { authorization: `Bearer ${OPERATOR}` } });
    const roles = ((await health.json()) as { partners: Array<{ name: string; role: string }> }).partners;
    expect([health.status, roles.filter((one) => one.role === 'asleep').length, roles.find((one) => one.name === partner)!.role]).toEqual([200, 39, 'leads']);

    await until(async () => (await metric(baseUrl, 'pos_sandbox_partners_led')) === 0, 10_000, 'the idle partner to be put away');
    expect(await leaderRow(database, partner)).toBe('');
    expect(await metric(baseUrl, 'pos_sandbox_partner_moves_total', { direction: 'out', why: 'idle' })).toBe(1);
    // Its next request (a control call) makes it again, with what it had.
    const refunds = (await (await fetch(`${baseUrl}/_sandbox/refunds`, { headers: { authorization: `Bearer ${admin(partner)}` } })).json()) as Array<{ externalId: string; status: string }>;
    // Decided before it was put away (no order has that ExternalId: FAILED), and kept.
    expect(refunds.map((one) => [one.externalId, one.status])).toEqual([['IDLE-1', 'FAILED']]);
    expect(await metric(baseUrl, 'pos_sandbox_partner_moves_total', { direction: 'in' })).toBe(2);
    // Its journal and its events came back with it: the refund's entry, and its event replayed after Last-Event-ID 0.
    const journal = (await (await fetch(`${baseUrl}/_sandbox/journal?path=/order/refund`, { headers: { authorization: `Bearer ${admin(partner)}` } })).json()) as Array<{ id: string; request: { body?: { ExternalId?: string } } }>;
    expect(journal.map((entry) => [entry.id, entry.request.body?.ExternalId])).toEqual([['j-000001', 'IDLE-1']]);
    const stream = await fetch(`${baseUrl}/_sandbox/events`, { headers: { authorization: `Bearer ${admin(partner)}`, 'last-event-id': '0' } });
    const reader = stream.body!.getReader();
    let replayed = '';
    while (!replayed.includes('"IDLE-1"')) replayed += Buffer.from((await reader.read()).value!).toString();
    await reader.cancel();
  });

  it('keeps a sandbox made while a refund is pending, past the idle time', async () => {
    const database = await testDatabase('idle_busy');
    const { baseUrl } = await serveHosted(['--partners', file, '--store', database, '--idle-ms', '300', '--refund-delay-ms', '2500']);
    expect(await refund(baseUrl, PARTNERS[3]!, 'BUSY-1')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(await metric(baseUrl, 'pos_sandbox_partners_led')).toBe(1);
    await until(async () => (await metric(baseUrl, 'pos_sandbox_partners_led')) === 0, 10_000, 'the partner to be put away once its refund was decided');
  });

  it('makes a sleeping partner on the instance rendezvous hashing names, whichever instance the client called', async () => {
    const database = await testDatabase('idle_two');
    const pair = await Promise.all([0, 1].map(() => serveHosted(['--partners', file, '--store', database, '--idle-ms', '60000', '--refund-delay-ms', '0'])));
    const ids = pair.map(({ child }) => instanceIdOf(child));
    // Each partner called through the instance that does not own it.
    const called = PARTNERS.slice(0, 10);
    for (const partner of called) {
      const other = pair.find(({ child }) => instanceIdOf(child) !== ownerOf(partner, ids))!;
      expect(await refund(other.baseUrl, partner, `TWO-${partner}`)).toBe(200);
    }
    for (const partner of called) expect(await leaderRow(database, partner)).toBe(ownerOf(partner, ids));
    expect((await metric(pair[0]!.baseUrl, 'pos_sandbox_partners_led')) + (await metric(pair[1]!.baseUrl, 'pos_sandbox_partners_led'))).toBe(called.length);
  });
});
