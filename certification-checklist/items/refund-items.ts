/** REFUND (optional, §1): refunds the POS asks for (§4.1), and how it treats the service’s errors. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { ChecklistItem, Traffic, Verdict } from '../checklist-types.js';
import { refusedVerdict, wasRefused } from '../refusals.js';
import { errorMessages, isRefund, namedExternalId, succeeded, typedValue } from '../traffic.js';
import { blocked, fail, pass, warn } from '../verdicts.js';

const refundCalls = (traffic: Traffic): JournalEntry[] => traffic.entries.filter(isRefund);

/** Gaps shorter than this between two sends of one refund are a loop, not a backoff. */
export const MIN_RETRY_GAP_MS = 1000;
/** More sends than this of one refunded order inside the observation window is flooding. */
export const MAX_SENDS_AFTER_5XX = 3;

/** One refund a step asked the POS for: the order, where it is, the ExternalId the POS gave it. */
export interface AskedRefund {
  orderId: string;
  externalId: string;
  locationId: string;
}

/** The refunds a step asked for (one, or one per Hub brand); `missing` when it had no order to refund. */
const askedRefunds = (traffic: Traffic): AskedRefund[] => (traffic.asked.refunds as AskedRefund[] | undefined) ?? [];

/** Every asked refund named its order's ExternalId, at its location, answered 200 and PROCESSED; one of an order never accepted is `orderItem`'s knock-on. */
/** Causes a refund item shares with REFUND-01 (same-cause.ts): the Hub's and the Kiosk's refunds are not their own root. */
export const REFUND_NAMES_ANOTHER_ORDER = 'refund-names-another-order';
export const REFUND_WITHOUT_LOCATION = 'refund-without-location';

function judgeRefunds(orderItem: string) {
  return (traffic: Traffic): Verdict => {
    const asked = askedRefunds(traffic);
    const verdicts = asked.map((refund) => judgeRefund(traffic, refund, orderItem, asked));
    const failed = verdicts.find((verdict) => verdict.status === 'fail');
    if (failed) return failed;
    if (asked.length === 0 || traffic.asked.missing !== undefined) {
      // The step had no order to refund (at one brand, or at all): it says why, and which item shows the POS never took one.
      const root = traffic.asked.blockedBy as string | undefined;
      return { ...blocked(String(traffic.asked.missing ?? 'no order the POS created in this run to refund')), ...(root ? { blockedBy: root } : {}) };
    }
    const stuck = verdicts.find((verdict) => verdict.status === 'blocked');
    if (stuck) return stuck;
    if (verdicts.length === 1) return verdicts[0]!;
    return pass(verdicts.map((verdict) => verdict.message).join('; '), refundCalls(traffic));
  };
}

/** With several asked (one per Hub brand), a refund for the wrong brand is judged as that brand's refund sent to the wrong place. */
function judgeRefund(traffic: Traffic, { externalId, locationId }: AskedRefund, orderItem: string, asked: readonly AskedRefund[]): Verdict {
  const all = refundCalls(traffic);
  const others = new Set(asked.map((refund) => refund.externalId).filter((id) => id !== externalId));
  const naming = all.filter((entry) => namedExternalId(entry) === externalId);
  const calls = asked.length === 1 ? all : naming.length > 0 ? naming : all.filter((entry) => entry.locationId === locationId && !others.has(namedExternalId(entry) as string));
  if (calls.length === 0) return blocked(`the POS sent no refund for ExternalId ${externalId} at ${locationId}${traffic.actor ? ` (${traffic.actor.detail})` : ''}`, asked.length > 1 ? all : []);
  const named = calls.find((entry) => namedExternalId(entry) !== externalId);
  if (named) {
    const sent = namedExternalId(named);
    // Refused, the sandbox's own words say why (a number where a string must be): the same for every refund item.
    if (wasRefused(named) && !calls.some(succeeded)) return refusedVerdict(`the POS sent the refund of ${JSON.stringify(externalId)} naming ExternalId ${typedValue(sent)} as`, named, calls);
    const said = fail(sent === undefined ? `the refund (${named.id}) named no ExternalId; the POS gave this order ${JSON.stringify(externalId)}` : `the refund (${named.id}) named ExternalId ${typedValue(sent)}, but the POS gave this order ${JSON.stringify(externalId)}`, [named]);
    // One cause in every refund item (the OrderId named, say): the Hub's and the Kiosk's are REFUND-01's knock-ons.
    return { ...said, cause: REFUND_NAMES_ANOTHER_ORDER };
  }
  const headless = calls.find((entry) => entry.request.headers['x-service-locationid'] === undefined);
  if (headless) {
    // The sandbox's refusal says more when it saw why (v1's CompanyProfileId header in its place).
    const said = wasRefused(headless) ? `; the sandbox said: ${errorMessages(headless).join('; ')}` : '';
    return { ...fail(`the refund (${headless.id}) carried no x-service-locationid header; every call names its location (§4), here ${JSON.stringify(locationId)}${said}`, [headless]), cause: REFUND_WITHOUT_LOCATION };
  }
  const elsewhere = calls.find((entry) => entry.locationId !== locationId);
  if (elsewhere) return fail(`the refund (${elsewhere.id}) was sent for location ${JSON.stringify(elsewhere.locationId)}, but the order is at ${JSON.stringify(locationId)}`, [elsewhere]);
  const refused = calls.find(wasRefused);
  if (refused && !calls.some(succeeded)) return refusedVerdict(`the POS sent the refund of ${externalId} as`, refused, calls);
  // §4.1 rule 3: the POS takes no further action after sending; a second accepted refund is a second refund.
  const accepted = calls.filter(succeeded);
  if (accepted.length > 1) {
    return fail(`the POS sent the refund of ${externalId} ${accepted.length} times and each was accepted (${accepted.map((entry) => entry.id).join(', ')}): a refund is sent once; the next is a DUPLICATE_REFUND and fails ALREADY_REFUNDED`, accepted);
  }
  const records = traffic.refunds.filter((refund) => calls.some((entry) => entry.id === refund.journalId));
  const processed = records.find((refund) => refund.status === 'PROCESSED');
  if (processed) return pass(`refund of ${externalId} at ${locationId} accepted and PROCESSED`, calls);
  const failed = records.find((refund) => refund.status === 'FAILED');
  if (failed?.reason === 'ORDER_NOT_ACCEPTED') {
    return { ...blocked(`the refund of ${externalId} was well formed, but the POS never accepted the order, so it could not be processed: ${failed.detail ?? ''}`.trim(), calls), blockedBy: orderItem };
  }
  if (failed) return fail(`the refund of ${externalId} was accepted, then FAILED: ${failed.reason ?? ''} ${failed.detail ?? ''}`.trim(), calls);
  return blocked(`the refund of ${externalId} was accepted but is still ${records[0]?.status ?? 'unrecorded'}; the sandbox did not finish it in time`, calls);
}

/** How often a refund was sent after the error the step's rule injected; a pass rests on that rule's own answer in the traffic. */
function judgeRetries(traffic: Traffic, after: string, status: number, limit: number): Verdict {
  if (traffic.asked.missing !== undefined) {
    const root = traffic.asked.blockedBy as string | undefined;
    return { ...blocked(String(traffic.asked.missing)), ...(root ? { blockedBy: root } : {}) };
  }
  const calls = refundCalls(traffic);
  if (calls.length === 0) return blocked(`the POS sent no refund, so its handling of ${after} could not be seen${traffic.actor ? ` (${traffic.actor.detail})` : ''}`);
  const first = calls[0]!;
  // Refused by the sandbox before any rule could meet it (a retired v1 path, say): the refusal is what to fix.
  if (first.fault === undefined && wasRefused(first)) return refusedVerdict(`the POS sent the refund as`, first, calls);
  if (first.fault === undefined || first.response.status !== status) {
    return blocked(`no refund met the injected ${after}: the first (${first.id}) was answered ${first.response.status}${first.fault ? ` by ${first.fault.rule}` : ' by the sandbox itself'}, so what the POS does after ${after} could not be seen`, calls);
  }
  if (calls.length > limit) return fail(`the refund was sent ${calls.length} times after it met ${after} (${first.id}); that floods the service`, calls);
  const times = calls.map((entry) => Date.parse(entry.time));
  const gaps = times.slice(1).map((time, i) => time - times[i]!);
  const hasty = gaps.findIndex((gap) => gap < MIN_RETRY_GAP_MS);
  if (hasty !== -1) {
    return fail(`the refund met ${after} (${first.id}) and was sent again ${gaps[hasty]} ms later (${calls[hasty + 1]!.id}); a retry waits at least ${MIN_RETRY_GAP_MS / 1000} s, with backoff`, calls);
  }
  if (calls.length === 1) return pass(`the refund met ${after} (${first.id}) and was not sent again`, calls);
  return pass(`the refund met ${after} (${first.id}) and was sent ${calls.length - 1} more time${calls.length === 2 ? '' : 's'}, the first ${gaps[0]} ms later (${calls[1]!.id}): at most ${limit} sends, at least ${MIN_RETRY_GAP_MS / 1000} s apart`, calls);
}

/** The refund that met the outage, sent again once the service was back and judged then; one never sent again warns (docs: "Where the interface is silent"). */
function judgeAfterOutage(traffic: Traffic): Verdict {
  if (traffic.asked.missing !== undefined) {
    const root = traffic.asked.blockedBy as string | undefined;
    return { ...blocked(String(traffic.asked.missing)), ...(root ? { blockedBy: root } : {}) };
  }
  const calls = refundCalls(traffic);
  const [asked] = askedRefunds(traffic);
  if (calls.length === 0 || asked === undefined) return blocked(`the POS sent no refund, so whether it sends it again after an outage could not be seen${traffic.actor ? ` (${traffic.actor.detail})` : ''}`);
  const met = calls.filter((entry) => entry.fault !== undefined && entry.response.status === 503);
  const after = calls.filter((entry) => entry.fault === undefined);
  if (met.length === 0 && calls[0]!.fault === undefined && wasRefused(calls[0]!)) return refusedVerdict(`the POS sent the refund as`, calls[0]!, calls);
  if (met.length === 0) return blocked(`no refund met the outage: the first (${calls[0]!.id}) was answered ${calls[0]!.response.status}${calls[0]!.fault ? ` by ${calls[0]!.fault.rule}` : ' by the sandbox itself'}, so whether the POS sends it again after an outage could not be seen`, calls);
  const first = met[0]!;
  if (after.length === 0) {
    const waited = Math.round(((traffic.asked.waitMs as number) + (traffic.asked.windowMs as number)) / 1000);
    const times = met.length === 1 ? '' : ` (${met.length} sends, all during the outage)`;
    return warn(`the refund of ${asked.externalId} met a 503 (${first.id})${times} and was never sent again once the service was back (watched ${waited} s): the merchant's refund is lost. Retry a refund that meets a 5xx or a timeout, with backoff, until it is delivered`, met);
  }
  // The sends the outage answered were never handled: the refund is judged on the ones the service took.
  const verdict = judgeRefund({ ...traffic, entries: traffic.entries.filter((entry) => entry.fault === undefined) }, asked, 'ORDER-02', [asked]);
  if (verdict.status !== 'pass') return verdict;
  const gap = Date.parse(after[0]!.time) - Date.parse(first.time);
  return pass(`the refund of ${asked.externalId} met a 503 (${first.id}) and was sent again ${gap} ms later, once the service was back (${after[0]!.id}): accepted and PROCESSED`, calls);
}

export const REFUND_ITEMS: ChecklistItem[] = [
  {
    id: 'REFUND-01',
    title: 'A refund names the order by the ExternalId the POS gave it',
    section: '§2.1, §4.1',
    category: 'REFUND',
    required: false,
    capabilities: ['refund'],
    remediation: 'Send POST /order/refund {"ExternalId": "<the id your POS returned for the order>"} once, with the order’s location in x-service-locationid; not the service’s OrderId.',
    step: 'refund-order',
    passive: false,
    judge: judgeRefunds('ORDER-02'),
  },
  {
    id: 'REFUND-02',
    title: 'A refund refused with 400 INVALID_PAYLOAD is not sent again',
    section: '§4.1 (rule 3), §7',
    category: 'REFUND',
    required: false,
    capabilities: ['refund'],
    remediation: 'Show a 400 to the person who asked for the refund, with its message; sending the same body again gets the same 400.',
    step: 'refund-invalid-payload',
    passive: false,
    judge: (traffic) => judgeRetries(traffic, 'a 400 INVALID_PAYLOAD', 400, 1),
  },
  {
    id: 'REFUND-03',
    title: 'A refund that meets a 5xx is not sent again in a loop',
    section: '§4.1 (rule 3)',
    category: 'REFUND',
    required: false,
    capabilities: ['refund'],
    remediation: `After a 5xx or a timeout, retry at most a few times with growing waits (≥ ${MIN_RETRY_GAP_MS / 1000} s), then report the refund as not sent.`,
    step: 'refund-service-error',
    passive: false,
    judge: (traffic) => judgeRetries(traffic, 'a 503', 503, MAX_SENDS_AFTER_5XX),
  },
  {
    id: 'REFUND-04',
    title: 'Hub orders are refunded with their own brand’s location',
    section: '§1 (Hub), §4.1',
    category: 'REFUND',
    required: false,
    capabilities: ['refund', 'hub'],
    remediation: 'Refund each Hub order with the LocationId it arrived with (its own brand’s location), in the header and in the token’s sub; never the Hub’s first or default brand.',
    step: 'refund-hub',
    passive: false,
    judge: judgeRefunds('ORDER-07'),
  },
  {
    id: 'REFUND-05',
    title: 'A Kiosk order is refunded',
    section: '§1 (Kiosk), §4.1',
    category: 'REFUND',
    required: false,
    capabilities: ['refund', 'kiosk'],
    remediation: 'Refund Kiosk orders like any other: their ExternalId, at the kiosk location.',
    step: 'refund-kiosk',
    passive: false,
    judge: judgeRefunds('ORDER-08'),
  },
  {
    id: 'REFUND-06',
    title: 'A refund that meets an outage is delivered once the service is back',
    section: '§4.1, sandbox rule',
    category: 'REFUND',
    required: false,
    capabilities: ['refund'],
    remediation: `Keep a refund that met a 5xx or a timeout, and send it again with growing waits (≥ ${MIN_RETRY_GAP_MS / 1000} s) until the service takes it; only then is the merchant’s refund done. Warn level: the interface names no retries.`,
    step: 'refund-service-error',
    passive: false,
    judge: judgeAfterOutage,
  },
];
