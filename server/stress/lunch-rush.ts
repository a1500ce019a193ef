/** The lunch rush: orders at a steady rate over every location, each sent on time whatever came before, and the decision times against the deadlines. */
import fc from 'fast-check';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import { orderArbitrary } from './order-arbitrary.js';
import type { StressCase, Deadlines, Verdict } from './delivery-verdict.js';

export interface RushOptions {
  seed: number;
  ratePerSecond: number;
  durationS: number;
  locations: readonly Location[];
  menus: Readonly<Record<string, Menu>>;
  deadlines: Deadlines;
  run: (testCase: StressCase) => Promise<{ verdict: Verdict; orderId: string; decidedMs: number }>;
}

export interface RushOrder {
  orderId: string;
  locationId: string;
  kiosk: boolean;
  items: number;
  decidedMs: number;
  verdict: Verdict;
}

export interface RushResult {
  seed: number;
  ratePerSecond: number;
  durationS: number;
  sent: number;
  /** Decision times in ms over every order decided. */
  p50: number;
  p99: number;
  slowest: number;
  orders: RushOrder[];
  /** The orders decided past their deadline, slowest first. */
  missed: RushOrder[];
  /** The orders that failed otherwise (a 5xx, a timeout …). */
  failed: RushOrder[];
}

/** The value below which `share` of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export async function lunchRush(options: RushOptions): Promise<RushResult> {
  const count = Math.max(1, Math.round(options.ratePerSecond * options.durationS));
  // One arbitrary per location, taken in turn: every location gets its share of the rush.
  const perLocation = options.locations.map((location) => fc.sample(orderArbitrary([location], options.menus), { seed: options.seed, numRuns: Math.ceil(count / options.locations.length) }));
  const cases: StressCase[] = Array.from({ length: count }, (_, index) => ({ order: perLocation[index % perLocation.length]![Math.floor(index / perLocation.length)]!, duplicate: false }));
  const started = performance.now();
  const intervalMs = 1000 / options.ratePerSecond;
  const sent = cases.map(async (testCase, index) => {
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { verdict, orderId, decidedMs } = await options.run(testCase);
    return { orderId, locationId: testCase.order.LocationId, kiosk: testCase.order.Kiosk !== undefined, items: testCase.order.Items.length, decidedMs, verdict } satisfies RushOrder;
  });
  const orders = await Promise.all(sent);
  const times = orders.filter((order) => order.verdict.ok || order.verdict.kind === 'slow').map((order) => order.decidedMs).sort((a, b) => a - b);
  return {
    seed: options.seed,
    ratePerSecond: options.ratePerSecond,
    durationS: options.durationS,
    sent: orders.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    slowest: times.at(-1) ?? 0,
    orders,
    missed: orders.filter((order) => !order.verdict.ok && order.verdict.kind === 'slow').sort((a, b) => b.decidedMs - a.decidedMs),
    failed: orders.filter((order) => !order.verdict.ok && order.verdict.kind !== 'slow'),
  };
}
