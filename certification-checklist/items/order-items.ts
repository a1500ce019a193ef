/** ORDER: orders the service sends to the POS (§3, §4.3): ExternalId, statuses, resends, duplicates, Hub, Kiosk. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { ChecklistItem } from '../checklist-types.js';
import { refusalShape } from '../refusals.js';
import { asPartnerMismatch, refusedGoodToken } from '../partner-mismatch.js';
import { findingMessage, isDelivery, isStatusCall, succeeded, typedValue, withFinding } from '../traffic.js';
import { blocked, fail, pass, warn } from '../verdicts.js';
import { recordOf, externalIdOf, orderIds, externalIdsOf, ownFix, unanswered, judgeOutcome, reusedExternalId, refusedDispatches, DECLINE_HINT, TOKEN_CHECK_HINT, REFUSES_GOOD_TOKENS } from './order-verdicts.js';

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
