/**
 * I/O: one order of a stress run sent to the POS through the running sandbox, exactly as the sandbox sends any order
 * (POST /_sandbox/orders with the order given whole: the partner's token, the headers, the retries, the journal),
 * then followed until it is decided or the status window ends.
 */
import type { ControlClient } from '../cli/control-client.js';
import type { GivenOrder } from '../orders/new-order.js';
import type { OrderRecord } from '../orders/order-rules.js';
import type { DeliveredOrder } from './delivery-verdict.js';

/** One generated case: the order, and whether the sandbox delivers it twice (as a retry after a lost reply would). */
export interface StressCase {
  order: GivenOrder;
  duplicate: boolean;
}

/** The POS's status call comes a few milliseconds after its reply, as a rule: asked again soon, then less often. */
const DECIDED_POLL_MS = [3, 5, 10, 20, 40];
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `posOrderUrl`: where the order goes, when not the sandbox's own --pos-order-url; `tries`: at most this many tries
 * (the sandbox's own when absent).
 */
export async function deliverCase(client: ControlClient, testCase: StressCase, statusWindowMs: number, posOrderUrl?: string, tries?: number): Promise<DeliveredOrder> {
  // One try of the next delivery is sent twice: the rule is spent by this order's first try.
  if (testCase.duplicate) await client.call('POST', '/_sandbox/faults', { description: 'pos-sandbox stress: this order is delivered twice', match: { direction: 'outbound' }, action: { kind: 'duplicate' }, times: 1 });
  const started = performance.now();
  let record = await client.call<OrderRecord>('POST', '/_sandbox/orders?wait=true', {
    order: testCase.order,
    ...(posOrderUrl === undefined ? {} : { posOrderUrl }),
    ...(tries === undefined ? {} : { tries }),
  });
  // The window opens with the POS's reply: a slow reply is judged slow, not undecided.
  const replied = performance.now();
  for (let asked = 0; record.Status === 'AWAITING_STATUS' && performance.now() - replied < statusWindowMs; asked++) {
    await later(DECIDED_POLL_MS[Math.min(asked, DECIDED_POLL_MS.length - 1)]!);
    record = await client.call<OrderRecord>('GET', `/_sandbox/orders/${encodeURIComponent(record.OrderId)}`);
  }
  return { record, decidedMs: performance.now() - started, duplicate: testCase.duplicate };
}
