/**
 * The hunt of `pos-sandbox stress` against the reference POS over real HTTP: correct, it finds nothing; with each bug
 * that only some orders trigger (the hunt is not told which), it finds it and shrinks it to an order from which
 * removing any one part makes the failure go away. The slow path's hunt is stress-slow-path.system.test.ts, the rest
 * of the stress tests stress.system.test.ts.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Bug } from '../../reference-pos/bugs.js';
import { hunt } from '../stress/hunt.js';
import { fixtures } from './helpers.js';
import { closeServers } from './loopback.js';
import { CLEAN_ORDERS, huntsDown, pair } from './stress-pairs.js';

afterAll(closeServers);

describe('the hunt', () => {
  it(`finds nothing in ${CLEAN_ORDERS} orders against the correct reference POS, and says so`, async () => {
    const { client, runner } = await pair();
    const cases = runner();
    const result = await hunt({ seed: 7, orders: CLEAN_ORDERS, locations: fixtures.locations, menus: fixtures.menus, run: (testCase, sending) => cases.run(testCase, sending) });
    expect({ generated: result.generated, passed: result.passed, findings: result.findings.map((finding) => `${finding.kind}: ${finding.message}`) }).toEqual({ generated: CLEAN_ORDERS, passed: CLEAN_ORDERS, findings: [] });
    expect((await client.call<unknown[]>('GET', '/_sandbox/orders?limit=1000')).length).toBeGreaterThanOrEqual(CLEAN_ORDERS);
  }, 60_000);

  it.each<[Bug, string, number]>([
    ['non-latin-name', '5xx', 80],
    ['many-modifiers', '5xx', 80],
    ['zero-total', '5xx', 100],
  ])('finds --bug %s (a %s) and shrinks it to an order from which removing any part makes it pass', (bug, kind, orders) => huntsDown(bug, kind, orders), 120_000);
});
