/** ORDER: orders the service sends to the POS (§3, §4.3): ExternalId, statuses, resends, duplicates, Hub, Kiosk. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { OrderRecord } from '../../server/orders/order-rules.js';
import type { ChecklistItem, Traffic, Verdict } from '../checklist-types.js';
import { refusalShape, refusedVerdict, wasRefused } from '../refusals.js';
import { asPartnerMismatch, refusedGoodToken } from '../partner-mismatch.js';
import { findingMessage, isDelivery, isStatusCall, namedExternalId, succeeded, typedValue, withFinding } from '../traffic.js';
import { blocked, fail, pass, warn } from '../verdicts.js';

const entriesOf = (traffic: Traffic, orderId: string) => traffic.entries.filter((entry) => entry.orderId === orderId);
const recordOf = (traffic: Traffic, orderId: string) => traffic.orders.find((order) => order.OrderId === orderId);
const externalIdOf = (entry: JournalEntry): unknown => (entry.response.body as { ExternalId?: unknown } | undefined)?.ExternalId;
const orderIds = (traffic: Traffic): string[] => (traffic.asked.orderIds as string[] | undefined) ?? [String(traffic.asked.orderId)];

/** Blocked when the POS answered none of the order's deliveries; undefined when it answered at least one. */
function unanswered(deliveries: JournalEntry[], orderId: string): Verdict | undefined {
  if (deliveries.length === 0) return blocked(`order ${orderId} was never delivered to the POS (is --pos-order-url right?)`);
  if (deliveries.every((entry) => entry.response.status === 0)) {
    return blocked(`the POS never answered order ${orderId}: ${deliveries.at(-1)!.response.error ?? 'no answer'} (${deliveries.length} tries)`, deliveries);
  }
  return undefined;
}

/** Status calls tied to the order, naming its ExternalId, or (for a step about this order alone) naming no other order of the step. */
function statusCallsFor(traffic: Traffic, orderId: string, record: OrderRecord | undefined): JournalEntry[] {
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
function judgeOutcome(traffic: Traffic, orderId: string, wanted: 'ACCEPTED' | 'REJECTED', record: OrderRecord | undefined = recordOf(traffic, orderId)): Verdict {
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
function reusedExternalId(answered: JournalEntry[]): { message: string; entries: JournalEntry[] } | undefined {
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
const DECLINE_HINT =
  'Answer every delivery with 2xx and {"ExternalId"} once the order is stored; decline an order the merchant cannot take with POST /order/status {"Status": "REJECTED", "Reason"}, not with an error status, which makes the service send it again and then give up on it.';
/** The verdict with the item's own fix: a resend or a kiosk order refused is what ORDER-04's and ORDER-08's are about. */
const ownFix = ({ hint: _hint, ...verdict }: Verdict): Verdict => verdict;
/** The fix for good tokens refused. */
const TOKEN_CHECK_HINT =
  'Check the service’s token with the partner’s non-prod key (§5: one key for both directions), aud = your POS name, iss io.service.pos.brokers.openapi, and a minute of clock tolerance: a good token must be taken.';

/** Dispatches the POS never answered 2xx on any try; a try a fault acted on carried no order of the sandbox's own. */
function refusedDispatches(deliveries: readonly JournalEntry[]): JournalEntry[][] {
  const byDispatch = new Map<string, JournalEntry[]>();
  for (const entry of deliveries.filter((candidate) => candidate.fault === undefined)) {
    const key = `${entry.orderId} ${entry.delivery?.dispatch ?? 1}`;
    byDispatch.set(key, [...(byDispatch.get(key) ?? []), entry]);
  }
  return [...byDispatch.values()].filter((tries) => tries.some((entry) => entry.response.status !== 0) && !tries.some(succeeded)).map((tries) => tries.filter((entry) => entry.response.status !== 0));
}

/** The ExternalIds the POS answered one dispatch of the order with. */
const externalIdsOf = (traffic: Traffic, orderId: string, dispatch: (n: number) => boolean): string[] => [
  ...new Set(
    traffic.entries
      .filter((entry) => isDelivery(entry) && entry.orderId === orderId && succeeded(entry) && dispatch(entry.delivery?.dispatch ?? 1))
      .map((entry) => externalIdOf(entry))
      .filter((id): id is string => typeof id === 'string'),
  ),
];

export const ORDER_ITEMS: ChecklistItem[] = [
  {
    id: 'ORDER-01',
    title: 'An order is answered with the POS’s ExternalId',
    section: '§2.1, §4.3',
    category: 'ORDER',
    required: true,
    remediation: 'Answer the order delivery with 2xx and {"ExternalId": "<your order id>"}, one of its own for each order; the service needs it for every later call about the order (refunds, status).',
    // Every delivery of the run: an ExternalId given to two orders shows only from the second one.
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const deliveries = traffic.entries.filter(isDelivery);
      if (deliveries.length === 0) return blocked('no order was delivered to the POS during the run (is --pos-order-url right?)');
      const unauthorized = deliveries.filter(refusedGoodToken);
      if (unauthorized.length > 0) {
        const first = unauthorized[0]!;
        const partner = String(traffic.asked.posName);
        const said = fail(
          `the POS refused ${unauthorized.length} of the ${deliveries.length} delivery tries with ${first.response.status} although each carried a good token from the sandbox (HS256 with the non-prod key of ${JSON.stringify(partner)}, aud ${JSON.stringify(partner)}, valid when sent); the first, order ${first.orderId} (${first.id}): ${JSON.stringify(first.response.body ?? '')}`,
          unauthorized,
        );
        return asPartnerMismatch(traffic, { ...said, cause: REFUSES_GOOD_TOKENS, hint: TOKEN_CHECK_HINT });
      }
      const answered = deliveries.filter(succeeded);
      if (answered.length === 0 && deliveries.every((entry) => entry.response.status === 0)) {
        return blocked(`the POS answered none of the ${deliveries.length} deliveries: ${deliveries.at(-1)!.response.error ?? 'no answer'}`, deliveries);
      }
      // Every dispatch of an order must be taken: one the POS answered only with errors never reached it.
      const refused = refusedDispatches(deliveries);
      if (refused.length > 0) {
        const first = refused[0]![0]!;
        const dispatches = new Set(deliveries.filter((entry) => entry.fault === undefined).map((entry) => `${entry.orderId} ${entry.delivery?.dispatch ?? 1}`)).size;
        const which = (first.delivery?.dispatch ?? 1) > 1 ? `the resend of order ${first.orderId}` : `order ${first.orderId}`;
        return {
          ...fail(`the POS answered ${refused.length} of the ${dispatches} orders delivered in the run (a resend counted apart) only with errors, on every try; ${which} with ${first.response.status} (${first.id}): ${JSON.stringify(first.response.body ?? '')}`, refused.flat()),
          cause: refusalShape(first),
          hint: DECLINE_HINT,
        };
      }
      if (answered.length === 0) return blocked(`no order was taken: the only deliveries the POS answered were tries a fault rule acted on`, deliveries);
      const missing = answered.filter((entry) => typeof externalIdOf(entry) !== 'string' || (externalIdOf(entry) as string).trim() === '');
      if (missing.length > 0) return fail(`the POS answered order ${missing[0]!.orderId} with ${JSON.stringify(missing[0]!.response.body ?? '')}: no ExternalId`, missing);
      const reused = reusedExternalId(answered);
      if (reused) return fail(reused.message, reused.entries);
      const orders = new Set(answered.map((entry) => entry.orderId));
      return pass(`the POS answered ${orders.size} order${orders.size === 1 ? '' : 's'} with an ExternalId of its own each, the first ${JSON.stringify(externalIdOf(answered[0]!))}`, answered);
    },
  },
  {
    id: 'ORDER-02',
    title: 'An accepted order reaches ACCEPTED',
    section: '§3',
    category: 'ORDER',
    required: true,
    remediation: 'After answering the delivery, send POST /order/status {"ExternalId", "Status": "ACCEPTED"} with the order’s location (or put Status in the reply).',
    step: 'order-accepted',
    passive: false,
    judge: (traffic) => judgeOutcome(traffic, String(traffic.asked.orderId), 'ACCEPTED'),
  },
  {
    id: 'ORDER-03',
    title: 'A rejected order reaches REJECTED, with a reason',
    section: '§3',
    category: 'ORDER',
    required: true,
    remediation: 'When the merchant declines an order, send POST /order/status {"ExternalId", "Status": "REJECTED", "Reason": "…"}.',
    step: 'order-rejected-resent',
    passive: false,
    judge: (traffic) => {
      const orderId = String(traffic.asked.orderId);
      const record = recordOf(traffic, orderId);
      // The step resends it afterwards: only the first dispatch counts here.
      const firstDispatch = { ...traffic, entries: traffic.entries.filter((entry) => entry.delivery === undefined || entry.delivery.dispatch === 1) };
      const verdict = judgeOutcome(firstDispatch, orderId, 'REJECTED', record);
      if (verdict.status !== 'pass') return verdict;
      const rejection = record?.History?.find((change) => change.status === 'REJECTED');
      if (!rejection?.reason) return warn(`order ${orderId} reached REJECTED without a Reason; say why, so the merchant and the customer know`, []);
      return { ...verdict, message: `${verdict.message}, reason "${rejection.reason}"` };
    },
  },
  {
    id: 'ORDER-04',
    title: 'A rejected order that is resent is taken again',
    section: '§3 ("a rejected order can be resent manually")',
    category: 'ORDER',
    required: true,
    remediation: 'Treat a delivery with a known OrderId and a new RequestId as a resend: take it again (with the same ExternalId) instead of refusing it as a duplicate.',
    step: 'order-rejected-resent',
    passive: false,
    judge: (traffic) => {
      const orderId = String(traffic.asked.orderId);
      const resent = traffic.entries.filter((entry) => isDelivery(entry) && entry.orderId === orderId && (entry.delivery?.dispatch ?? 1) > 1);
      if (resent.length === 0) return { ...blocked(`order ${orderId} was not resent: it never reached REJECTED, so there was nothing to resend`), blockedBy: 'ORDER-03' };
      const none = unanswered(resent, orderId);
      if (none) return none;
      // A resend is the same order: an ExternalId of its own would leave refunds naming the rejected one.
      const [first] = externalIdsOf(traffic, orderId, (dispatch) => dispatch === 1);
      const changed = externalIdsOf(traffic, orderId, (dispatch) => dispatch > 1).find((id) => id !== first);
      if (first !== undefined && changed !== undefined) {
        const answers = resent.filter((entry) => externalIdOf(entry) === changed);
        return fail(`the resent order ${orderId} was answered with ExternalId ${typedValue(changed)}, but the POS gave it ${typedValue(first)} the first time; a resend keeps the order’s ExternalId`, answers);
      }
      return ownFix(judgeOutcome({ ...traffic, entries: traffic.entries.filter((entry) => (entry.delivery?.dispatch ?? 2) > 1) }, orderId, 'ACCEPTED'));
    },
  },
  {
    id: 'ORDER-05',
    title: 'A duplicate delivery is idempotent',
    section: '§9 (RequestId)',
    category: 'ORDER',
    required: true,
    remediation: 'Key orders by OrderId: a second delivery of an OrderId you already hold gets the same ExternalId and creates no second order.',
    step: 'order-duplicate',
    passive: true,
    judge: (traffic) => {
      const copies = traffic.entries.filter((entry) => isDelivery(entry) && entry.delivery?.copy !== undefined);
      if (copies.length < 2) return blocked('no order was delivered twice (the duplicate fault did not fire)');
      // One duplicated try is a pair of copies; a journal holding several (a passive run) is judged pair by pair.
      const byTry = new Map<string, JournalEntry[]>();
      for (const entry of copies) {
        const key = `${entry.orderId} ${entry.requestId} ${entry.delivery!.dispatch}.${entry.delivery!.attempt}`;
        byTry.set(key, [...(byTry.get(key) ?? []), entry]);
      }
      const pairs = [...byTry.values()];
      const answeredPairs = pairs.filter((pair) => pair.filter(succeeded).length >= 2);
      if (answeredPairs.length === 0) {
        const said = `the POS answered ${copies.filter(succeeded).length} of the ${copies.length} copies with 2xx, never both copies of one delivery`;
        // Each copy carried a good token: a POS that refuses those cannot show whether it is idempotent.
        const unauthorized = copies.filter(refusedGoodToken);
        if (unauthorized.length > 0) return { ...blocked(`${said}: it refused ${unauthorized.length} with ${unauthorized[0]!.response.status} (${unauthorized[0]!.id}), though each carried a good token`, copies), blockedBy: 'ORDER-01' };
        return blocked(said, copies);
      }
      const broken = withFinding(copies, 'DUPLICATE_NOT_IDEMPOTENT');
      if (broken.length > 0) return fail(findingMessage(broken, 'DUPLICATE_NOT_IDEMPOTENT')!, pairs.find((pair) => pair.includes(broken[0]!))!);
      const split = answeredPairs.find((pair) => new Set(pair.filter(succeeded).map((entry) => JSON.stringify(externalIdOf(entry)))).size > 1);
      if (split) return fail(`the copies of one delivery of order ${split[0]!.orderId} were answered with different ExternalIds: ${split.filter(succeeded).map((entry) => typedValue(externalIdOf(entry))).join(', ')}`, split);
      const ids = answeredPairs.map((pair) => JSON.stringify(externalIdOf(pair.find(succeeded)!)));
      return pass(answeredPairs.length === 1 ? `both copies were answered with ExternalId ${ids[0]}` : `the copies of each of ${answeredPairs.length} duplicated deliveries were answered alike (${ids.join(', ')})`, answeredPairs.flat());
    },
  },
  {
    id: 'ORDER-06',
    title: 'Orders are acknowledged well within the delivery timeout',
    section: '§4.3 (the 10 s timeout is the sandbox’s: where the interface is silent)',
    category: 'ORDER',
    required: true,
    remediation: 'Answer the delivery as soon as the order is stored (well under the timeout), and decide it afterwards with POST /order/status; do not hold the reply while the kitchen decides (or a kiosk ticket prints).',
    // Every order of the run: a POS slow only for one kind of order (a kiosk that prints first) shows only there.
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const limit = Number(traffic.asked.ackLimitMs);
      // A try a fault acted on (a spoiled token, a copy, a withheld reply) says nothing about the POS's own pace.
      const tries = traffic.entries.filter((entry) => isDelivery(entry) && entry.fault === undefined);
      if (tries.length === 0) return blocked('no order was delivered to the POS during the run (is --pos-order-url right?)');
      const answered = tries.filter((entry) => entry.response.status !== 0);
      const alive = (orderId: string | undefined) => answered.some((entry) => entry.orderId === orderId) || traffic.entries.some((entry) => isStatusCall(entry) && entry.orderId === orderId);
      const late = tries.find((entry) => entry.response.status === 0 && alive(entry.orderId));
      if (late) return fail(`a delivery of order ${late.orderId} was not acknowledged within ${limit} ms although the POS was up (it answered another try or sent its status), so the service sent it again`, tries.filter((entry) => entry.orderId === late.orderId));
      if (answered.length === 0) return blocked(`the POS answered none of the ${tries.length} deliveries: ${tries.at(-1)!.response.error ?? 'no answer'}`, tries);
      // An answer that takes no order says nothing of how soon the POS acknowledges one it takes.
      if (!answered.some(succeeded)) {
        return { ...blocked(`the POS took no order: it answered every delivery with an error, the first with ${answered[0]!.response.status} (${answered[0]!.id}), so how soon it acknowledges an order it takes could not be seen`, answered), blockedBy: 'ORDER-01' };
      }
      const slowest = answered.reduce((worst, entry) => (entry.latencyMs > worst.latencyMs ? entry : worst));
      const orders = new Set(answered.map((entry) => entry.orderId)).size;
      if (slowest.latencyMs > limit / 2) {
        return warn(`order ${slowest.orderId} was acknowledged after ${slowest.latencyMs} ms, over half the ${limit} ms timeout; a busy moment will make the service send it again`, [slowest]);
      }
      return pass(`${orders} order${orders === 1 ? ' was' : 's were'} acknowledged (tries a fault acted on left out), the slowest (${slowest.orderId}) in ${slowest.latencyMs} ms (timeout ${limit} ms)`, [slowest]);
    },
  },
  {
    id: 'ORDER-07',
    title: 'Hub orders are handled with each brand’s own location',
    section: '§1 (Hub)',
    category: 'ORDER',
    required: true,
    capabilities: ['hub'],
    remediation: 'Keep the LocationId of each Hub order and use it (header x-service-locationid and token sub) in every later call about that order, never the Hub’s first or default brand.',
    step: 'order-hub',
    passive: false,
    judge: (traffic) => {
      const verdicts = orderIds(traffic).map((orderId) => judgeOutcome(traffic, orderId, 'ACCEPTED'));
      const wrongBrand = withFinding(traffic.entries, 'WRONG_BRAND_LOCATION');
      if (wrongBrand.length > 0) return fail(findingMessage(wrongBrand, 'WRONG_BRAND_LOCATION')!, wrongBrand);
      const worst = verdicts.find((verdict) => verdict.status === 'fail') ?? verdicts.find((verdict) => verdict.status === 'blocked');
      if (worst) return worst;
      return { status: 'pass', message: `${verdicts.length} Hub orders, one per brand location, each reached ACCEPTED with its own location`, evidence: verdicts.flatMap((verdict) => verdict.evidence) };
    },
  },
  {
    id: 'ORDER-08',
    title: 'Kiosk orders are taken',
    section: '§1 (Kiosk)',
    category: 'ORDER',
    required: true,
    capabilities: ['kiosk'],
    remediation: 'Take orders with Channel "kiosk": prepaid, eat-in or takeout, with the pager/table number in Kiosk.PagerNumber.',
    step: 'order-kiosk',
    passive: false,
    // A kiosk order refused is what the item's own fix is about: taking kiosk orders.
    judge: (traffic) => ownFix(judgeOutcome(traffic, String(traffic.asked.orderId), 'ACCEPTED')),
  },
];
