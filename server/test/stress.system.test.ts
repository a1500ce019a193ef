/**
 * `pos-sandbox stress` against POSes over real HTTP, past the plain hunt (stress-hunt.system.test.ts): two bugs that
 * answer alike, a second POS written here apart from the reference POS with a bug of its own, the lunch rush, and the
 * commands. Each failure is shrunk to an order from which removing any one part makes the failure go away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { hunt } from '../stress/hunt.js';
import { saveFailures } from '../stress/stress-run.js';
import { lunchRush } from '../stress/lunch-rush.js';
import { SHAPE_LIMITS } from '../../reference-pos/order-shape-bugs.js';
import { fixtures } from './helpers.js';
import { cli } from './processes.js';
import { closeServers } from './loopback.js';
import { pair } from './stress-pairs.js';

afterAll(closeServers);

describe('two bugs that answer alike', () => {
  it('are two findings, each shrunk to an order that fails with its own answer, saved as 5xx.json and 5xx-2.json', async () => {
    const { runner, client } = await pair(undefined, ['non-latin-name', 'many-modifiers']);
    const cases = runner();
    const result = await hunt({ seed: 11, orders: 120, shrinkMs: 30_000, locations: fixtures.locations, menus: fixtures.menus, run: (testCase, sending) => cases.run(testCase, sending) });
    expect(result.findings.map((finding) => finding.kind)).toEqual(['5xx', '5xx']);
    // Only the first order the POS failed went with the sandbox's retries; every one after it, with one try.
    const failed = await client.call<Array<{ Deliveries: Array<{ attempt: number }> }>>('GET', '/_sandbox/orders?status=DELIVERY_FAILED&limit=1000');
    expect(failed.length).toBeGreaterThan(10);
    const tries = failed.map((order) => Math.max(...order.Deliveries.map((attempt) => attempt.attempt)));
    expect(tries.filter((count) => count > 1)).toEqual([3]);
    expect(result.findings.map((finding) => /it said .*"message":"([^"]+)"/.exec(finding.message)?.[1]).sort()).toEqual(['cannot encode an item name in the kitchen printer charset', 'modifier table overflow']);
    expect(result.findings.every((finding) => finding.minimalCertain)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'stress-two-'));
    try {
      const files = await saveFailures(dir, 11, result.findings);
      expect(files.map((file) => file.slice(dir.length))).toEqual(['/failures/5xx.json', '/failures/5xx-2.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('a POS written apart from the reference POS', () => {
  /** Its bug, unknown to the generator: it makes its ExternalId from the order's total, so two orders of one total share it. */
  const keyedByTotal = () => (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const order = JSON.parse(body) as { Total: number };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: `EXT-${order.Total}`, Status: 'ACCEPTED' }));
    });
  };

  it('has its bug found: an ExternalId given to two orders, shrunk to an order whose every part is needed', async () => {
    const { runner } = await pair(keyedByTotal);
    const cases = runner();
    const result = await hunt({ seed: 3, orders: 200, shrinkMs: 15_000, locations: fixtures.locations, menus: fixtures.menus, run: (testCase, sending) => cases.run(testCase, sending) });
    expect(result.findings.map((finding) => finding.kind)).toEqual(['external-id-reused']);
    expect(result.findings[0]!.message).toMatch(/^the POS answered ExternalId EXT-\d+, which it gave order ord-\S+ of this run already: the ExternalId identifies one order the POS created \(§2\.1\)$/);
  }, 60_000);
});

describe('the lunch rush', () => {
  it('reports decision times, and against a slow path for big orders names every order that missed the deadline', async () => {
    // Twenty orders a second on a shared machine: the deadline is wide, and the slow path well past it. A status call
    // for a location with deliveries under way waits for them (up to 2 s), so the window is wide too.
    const timing = { deadlines: { kioskMs: 2500, deliveryMs: 2500 }, bigOrderMs: 4000, attemptTimeoutMs: 8000, statusWindowMs: 4000 };
    const { runner } = await pair(undefined, ['slow-big-order'], timing);
    const cases = runner();
    const rush = await lunchRush({
      seed: 4,
      ratePerSecond: 20,
      durationS: 3,
      locations: fixtures.locations,
      menus: fixtures.menus,
      deadlines: timing.deadlines,
      run: (testCase) => cases.send(testCase),
    });
    expect(rush.sent).toBe(60);
    expect(new Set(rush.orders.map((order) => order.locationId)).size).toBe(fixtures.locations.length);
    const big = rush.orders.filter((order) => order.items > SHAPE_LIMITS.items).map((order) => order.orderId).sort();
    expect(big.length).toBeGreaterThan(0);
    // Every big order is named. A small one may be too: a status call waits for the deliveries under way at its
    // location (up to 2 s), and on a loaded machine that can take it past the deadline.
    expect(rush.missed.map((order) => order.orderId)).toEqual(expect.arrayContaining(big));
    expect(rush.missed.filter((order) => order.items > SHAPE_LIMITS.items).length).toBe(big.length);
    expect(rush.failed).toEqual([]);
    expect(rush.p50).toBeLessThanOrEqual(rush.p99);
    expect(rush.slowest).toBeGreaterThanOrEqual(timing.bigOrderMs);
  }, 60_000);
});

describe('pos-sandbox stress and orders replay, as commands', () => {
  it('saves what it finds, replays it failing against the broken POS and passing against a correct one', async () => {
    const broken = await pair(undefined, ['zero-total']);
    const correct = await pair();
    const dir = mkdtempSync(join(tmpdir(), 'stress-cli-'));
    try {
      const run = await cli(['stress', '--sandbox', broken.sandboxUrl, '--pos-order-url', broken.posUrl, '--orders', '100', '--seed', '11', '--shrink-s', '10', '--report-dir', dir]);
      expect(run.code).toBe(1);
      const file = /saved as (\S+)/.exec(run.stdout)![1]!;
      expect(run.stdout).toContain('FOUND 5xx: the POS answered 500 to try 1');
      expect(readdirSync(join(file, '..', '..')).sort()).toEqual(['failures', 'junit.xml', 'stress.html', 'stress.json', 'stress.md']);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'pos-sandbox/stress-failure', kind: '5xx', seed: 11, order: { Total: 0 } });
      // What the dashboard showed of it, as the run told the sandbox at its end.
      const [told] = await broken.client.call<Array<Record<string, unknown>>>('GET', '/_sandbox/stress-runs');
      expect(told).toMatchObject({ mode: 'hunt', seed: 11, state: 'done', planned: 100, sent: 100, findings: [{ kind: '5xx', items: 1, file }], verdict: 'FOUND 1 failure in 100 orders.', reportDir: join(file, '..', '..') });
      expect(run.stdout).toContain(`live on the dashboard: ${broken.sandboxUrl}/_sandbox/ui/#/stress/${String(told!.id)}`);
      const again = await cli(['orders', 'replay', file, '--sandbox', broken.sandboxUrl, '--pos-order-url', broken.posUrl]);
      expect([again.code, again.stdout.split('\n')[0]]).toEqual([1, expect.stringMatching(/^still fails: 5xx: the POS answered 500/)]);
      const fixed = await cli(['orders', 'replay', file, '--sandbox', correct.sandboxUrl, '--pos-order-url', correct.posUrl]);
      expect([fixed.code, fixed.stdout]).toEqual([0, expect.stringMatching(/^passes now: order ord-\S+ was taken \((ACCEPTED|AWAITING_STATUS)\)/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
