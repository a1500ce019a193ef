/** Pure: how the ORDER items read an order's traffic: its deliveries, its status calls, the outcome it reached. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { OrderRecord } from '../../server/orders/order-rules.js';
import type { Traffic, Verdict } from '../checklist-types.js';
import { refusalShape, refusedVerdict, wasRefused } from '../refusals.js';
import { refusedGoodToken } from '../partner-mismatch.js';
import { isDelivery, isStatusCall, namedExternalId, succeeded, typedValue } from '../traffic.js';
import { blocked, fail, pass } from '../verdicts.js';

export const entriesOf = (traffic: Traffic, orderId: string) => traffic.entries.filter((entry) => entry.orderId === orderId);
export const recordOf = (traffic: Traffic, orderId: string) => traffic.orders.find((order) => order.OrderId === orderId);
export const externalIdOf = (entry: JournalEntry): unknown => (entry.response.body as { ExternalId?: unknown } | undefined)?.ExternalId;
export const orderIds = (traffic: Traffic): string[] => (traffic.asked.orderIds as string[] | undefined) ?? [String(traffic.asked.orderId)];

/** Blocked when the POS answered none of the order's deliveries; undefined when it answered at least one. */
export function unanswered(deliveries: JournalEntry[], orderId: string): Verdict | undefined {
  if (deliveries.length === 0) return blocked(`order ${orderId} was never delivered to the POS (is --pos-order-url right?)`);
  if (deliveries.every((entry) => entry.response.status === 0)) {
    return blocked(`the POS never answered order ${orderId}: ${deliveries.at(-1)!.response.error ?? 'no answer'} (${deliveries.length} tries)`, deliveries);
  }
  return undefined;
}

/** Status calls tied to the order, naming its ExternalId, or (for a step about this order alone) naming no other order of the step. */
export function statusCallsFor(traffic: Traffic, orderId: string, record: OrderRecord | undefined): JournalEntry[] {
  const others = new Set(traffic.orders.filter((order) => order.OrderId !== orderId).flatMap((order) => [order.OrderId, order.ExternalId]));
  const alone = orderIds(traffic).length === 1;
  return traffic.entries.filter((entry) => {
    if (!isStatusCall(entry)) return false;
    if (entry.orderId !== undefined) return entry.orderId === orderId;
    const named = namedExternalId(entry);
    if (record?.ExternalId !== undefined && named === record.ExternalId) return true;
    return alone && !others.has(named as string);
  });
}

/** The order was delivered, answered with an ExternalId, and reached `wanted` through the POS's reply or status call. */
export function judgeOutcome(traffic: Traffic, orderId: string, wanted: 'ACCEPTED' | 'REJECTED', record: OrderRecord | undefined = recordOf(traffic, orderId)): Verdict {
  const entries = entriesOf(traffic, orderId);
  const deliveries = entries.filter(isDelivery);
  const none = unanswered(deliveries, orderId);
  if (none) return none;
  const statusCalls = statusCallsFor(traffic, orderId, record);
  const reached = record?.History?.find((change) => change.status === wanted && (change.by === 'pos-status' || change.by === 'pos-reply'));
  if (reached) return pass(`order ${orderId} reached ${wanted} by the POS’s ${reached.by === 'pos-reply' ? 'reply' : 'status call'}`, [...deliveries.filter(succeeded), ...statusCalls]);
  const refused = deliveries.filter((entry) => entry.response.status !== 0 && !succeeded(entry));
  if (refused.length > 0 && !deliveries.some(succeeded)) {
    const first = refused[0]!;
    const said = `the POS refused order ${orderId} with ${first.response.status} (${first.id}): ${JSON.stringify(first.response.body ?? '')}`;
    // A good token refused is the delivery item's failure; any other refusal is this item's own, one cause for every order item that meets it.
    if (refused.some(refusedGoodToken)) return { ...blocked(`${said}; its token was the sandbox's good one, so the order could not be taken`, refused), blockedBy: 'ORDER-01' };
    return { ...fail(said, refused), cause: refusalShape(first), hint: DECLINE_HINT };
  }
  if (record?.Status === 'DELIVERY_FAILED') {
    return fail(`order ${orderId} is DELIVERY_FAILED: ${record.Deliveries?.at(-1)?.problem ?? 'no try delivered it'}`, deliveries);
  }
  const decided = record?.History?.find((change) => (change.by === 'pos-status' || change.by === 'pos-reply') && (change.status === 'ACCEPTED' || change.status === 'REJECTED'));
  if (decided) return fail(`order ${orderId} is ${decided.status}, not ${wanted}: the POS’s ${decided.by === 'pos-reply' ? 'reply' : 'status call'} said so`, [...deliveries.filter(succeeded), ...statusCalls]);
  const refusedCall = statusCalls.find(wasRefused);
  if (refusedCall) {
    const named = namedExternalId(refusedCall);
    return refusedVerdict(`order ${orderId} is ${record?.Status ?? 'unknown'}: the POS sent its status${named === undefined ? '' : ` naming ExternalId ${typedValue(named)}`} as`, refusedCall, statusCalls);
  }
  if (statusCalls.length === 0) {
    return { ...fail(`order ${orderId} is ${record?.Status ?? 'unknown'}: the POS answered the delivery but sent no status call (POST /order/status with ${wanted}, or Status in the reply)`, deliveries), cause: NO_STATUS_CALL };
  }
  return fail(`order ${orderId} is ${record?.Status ?? 'unknown'}, not ${wanted}`, statusCalls);
}

/** Within the run's own deliveries: EXTERNAL_ID_REUSED also names orders of earlier runs, which a restarted POS meets through no fault of the run. */
export function reusedExternalId(answered: JournalEntry[]): { message: string; entries: JournalEntry[] } | undefined {
  const byName = new Map<string, JournalEntry[]>();
  for (const entry of answered) {
    const key = `${entry.locationId ?? ''}\u0000${String(externalIdOf(entry))}`;
    byName.set(key, [...(byName.get(key) ?? []), entry]);
  }
  for (const entries of byName.values()) {
    const orders = [...new Set(entries.map((entry) => entry.orderId))];
    if (orders.length < 2) continue;
    const shown = orders.length === 2 ? `${orders[0]} and ${orders[1]}` : `${orders.length} orders (${orders.join(', ')})`;
    return {
      message: `ExternalId ${JSON.stringify(externalIdOf(entries[0]!))} was given to ${shown} of location '${entries[0]!.locationId}'; each order needs its own, or a refund cannot tell them apart (EXTERNAL_ID_REUSED)`,
      entries,
    };
  }
  return undefined;
}

/** The cause of an order that never got a status call: the same in every order item, so one root cause, not four. */
export const NO_STATUS_CALL = 'no-status-call';
/** The cause of deliveries refused as unauthorized although their token was good. */
export const REFUSES_GOOD_TOKENS = 'refuses-good-tokens';

/** The fix for an order the POS refused with an error status, which the item's own remediation does not name. */
export const DECLINE_HINT =
  'Answer every delivery with 2xx and {"ExternalId"} once the order is stored; decline an order the merchant cannot take with POST /order/status {"Status": "REJECTED", "Reason"}, not with an error status, which makes the service send it again and then give up on it.';
/** The verdict with the item's own fix: a resend or a kiosk order refused is what ORDER-04's and ORDER-08's are about. */
export const ownFix = ({ hint: _hint, ...verdict }: Verdict): Verdict => verdict;
/** The fix for good tokens refused. */
export const TOKEN_CHECK_HINT =
  'Check the service’s token with the partner’s non-prod key (§5: one key for both directions), aud = your POS name, iss io.service.pos.brokers.openapi, and a minute of clock tolerance: a good token must be taken.';

/** Dispatches the POS never answered 2xx on any try; a try a fault acted on carried no order of the sandbox's own. */
export function refusedDispatches(deliveries: readonly JournalEntry[]): JournalEntry[][] {
  const byDispatch = new Map<string, JournalEntry[]>();
  for (const entry of deliveries.filter((candidate) => candidate.fault === undefined)) {
    const key = `${entry.orderId} ${entry.delivery?.dispatch ?? 1}`;
    byDispatch.set(key, [...(byDispatch.get(key) ?? []), entry]);
  }
  return [...byDispatch.values()].filter((tries) => tries.some((entry) => entry.response.status !== 0) && !tries.some(succeeded)).map((tries) => tries.filter((entry) => entry.response.status !== 0));
}

/** The ExternalIds the POS answered one dispatch of the order with. */
export const externalIdsOf = (traffic: Traffic, orderId: string, dispatch: (n: number) => boolean): string[] => [
  ...new Set(
    traffic.entries
      .filter((entry) => isDelivery(entry) && entry.orderId === orderId && succeeded(entry) && dispatch(entry.delivery?.dispatch ?? 1))
      .map((entry) => externalIdOf(entry))
      .filter((id): id is string => typeof id === 'string'),
  ),
];

