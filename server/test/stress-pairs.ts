/**
 * The sandbox and POS pairs the stress tests hunt over (stress.system.test.ts, stress-hunt.system.test.ts), and the
 * sizes they hunt at.
 */
import type { Bug } from '../../reference-pos/bugs.js';
import { createReferencePos } from '../../reference-pos/app.js';
import { controlClient } from '../cli/control-client.js';
import { createSandbox } from '../sandbox.js';
import { memoryStorage } from '../store/segment-storage.js';
import { silentLogger } from '../logger.js';
import { expect } from '@jest/globals';
import { hunt } from '../stress/hunt.js';
import { withOnePartLess } from '../stress/order-arbitrary.js';
import { CaseRunner } from '../stress/stress-run.js';
import type { Deadlines } from '../stress/delivery-verdict.js';
import { fixtures, PARTNER } from './helpers.js';
import { listen } from './loopback.js';

/**
 * `npm run test:system` runs it small (200 orders for the correct POS; the slow path's hunt, whose every failing try costs its
 * delay, left out); `npm run test:stress` at the full size the acceptance names (500 orders, every bug):
 * POS_SANDBOX_STRESS_FULL=1, run by CI.
 */
export const FULL = process.env.POS_SANDBOX_STRESS_FULL === '1';
export const CLEAN_ORDERS = FULL ? 500 : 200;

/** Wide: on a loaded machine an ordinary order must never read as slow, or it would shrink as another kind. */
export const DEADLINES: Deadlines = { kioskMs: 10_000, deliveryMs: 10_000 };
export const BIG_ORDER_MS = 1300;
/** For the slow path: well below its delay, well above an ordinary order's time. */
export const SLOW_TIMING = { deadlines: { kioskMs: 1000, deliveryMs: 1000 }, bigOrderMs: BIG_ORDER_MS, attemptTimeoutMs: 4000, statusWindowMs: 2000 };

export async function pair(posHandler?: (sandboxUrl: string) => Parameters<typeof listen>[0], bugs: Bug[] = [], timing = { deadlines: DEADLINES, bigOrderMs: BIG_ORDER_MS, attemptTimeoutMs: 2000, statusWindowMs: 1000 }) {
  const sandbox = await createSandbox({ fixtures, partner: PARTNER, storage: memoryStorage(), logger: silentLogger(), refundDelayMs: 20, dispatch: { attemptTimeoutMs: timing.attemptTimeoutMs, retryDelaysMs: [20, 20] } });
  const sandboxUrl = await listen(sandbox.app);
  const pos =
    posHandler?.(sandboxUrl) ??
    createReferencePos({ identity: { posName: PARTNER.name, key: PARTNER.nonProdKey, apiKey: PARTNER.apiKey }, sandboxUrl, menus: fixtures.menus, locations: fixtures.locations, bugs: new Set(bugs), bigOrderMs: timing.bigOrderMs });
  const posUrl = await listen(pos);
  const client = controlClient(sandboxUrl, {});
  return { sandbox, sandboxUrl, posUrl: `${posUrl}/order`, client, runner: () => new CaseRunner(client, timing.statusWindowMs, timing.deadlines, `${posUrl}/order`) };
}

/** The hunt against the reference POS with `bug` finds one failure of `kind` in `orders`, shrunk as far as it goes. */
export async function huntsDown(bug: Bug, kind: string, orders: number): Promise<void> {
  const { runner } = await pair(undefined, [bug], bug === 'slow-big-order' ? SLOW_TIMING : undefined);
  const cases = runner();
  const result = await hunt({ seed: 11, orders, shrinkMs: 60_000, locations: fixtures.locations, menus: fixtures.menus, run: (testCase, sending) => cases.run(testCase, sending) });
  expect(result.findings.map((finding) => finding.kind)).toEqual([kind]);
  const [finding] = result.findings;
  expect(finding!.minimalCertain).toBe(true);
  // Fails the same way again, and each order with one part less passes.
  const check = runner();
  await expect(check.run(finding!.minimal)).resolves.toMatchObject({ ok: false, kind });
  // (The zero total's smallest order is one free item: it has no part to take out.)
  const lesser = withOnePartLess(finding!.minimal);
  const verdicts = await Promise.all(lesser.map(async ({ part, testCase }) => ({ part, ok: (await runner().run(testCase)).ok })));
  expect(verdicts.filter(({ ok }) => !ok)).toEqual([]);
}
