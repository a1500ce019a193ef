/** An order delivered to the POS: up to `attempts` tries with backoff, each journaled with its reply's verdict, then DELIVERY_FAILED. */
import type { KeyObject } from 'node:crypto';
import type { PartnerIdentity } from '../config.js';
import { unknownFieldFindings } from '../http/findings.js';
import type { OrderRecord } from './order-rules.js';
import type { Journal } from '../journal/journal.js';
import type { Deliver, OrderDesk } from './order-desk.js';
import type { FaultRegistry } from '../faults/fault-registry.js';
import { duplicateFindings, judgeTokenFault, sendThroughFault, serviceTokenFor, tokenFaultFindings } from '../faults/outbound-fault.js';
import type { EgressPolicy } from '../hosted/egress.js';
import { outboundEntry } from '../journal/journal-entry.js';
import { judgeOrderReply } from './post-order.js';

export interface DispatchPolicy {
  attempts: number;
  attemptTimeoutMs: number;
  /** The wait before the 2nd, 3rd … try; the last value repeats. */
  retryDelaysMs: number[];
}

export const DEFAULT_DISPATCH_POLICY: DispatchPolicy = { attempts: 3, attemptTimeoutMs: 10_000, retryDelaysMs: [1_000, 2_000] };

/** Long enough for one delivery, short enough to be worth checking. */
const SERVICE_TOKEN_TTL_S = 300;

export interface DispatcherDeps {
  desk: OrderDesk;
  journal: Journal;
  partner: PartnerIdentity;
  key: KeyObject;
  clock: () => number;
  newId: () => string;
  version: string;
  policy: DispatchPolicy;
  sleep?: (ms: number) => Promise<void>;
  faults?: FaultRegistry;
  egress?: EgressPolicy;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function orderDelivery(deps: DispatcherDeps): Deliver {
  const { desk, journal, partner, policy } = deps;
  const sleep = deps.sleep ?? realSleep;
  return async (orderId: string): Promise<OrderRecord> => {
    const order = desk.get(orderId)!;
    const dispatch = 1 + Math.max(0, ...(order.Deliveries ?? []).map((attempt) => attempt.dispatch));
    // The desk chose it when the dispatch started: every try of the dispatch carries it.
    const requestId = order.Order?.RequestId || `req-${deps.newId()}`;
    const sent = { ...order.Order!, RequestId: requestId };
    const body = JSON.stringify(sent);
    // Fixture orders carry no URL: they go to --pos-order-url (dispatch refuses an order with neither).
    const url = (order.PosOrderUrl ?? desk.defaultPosOrderUrl)!;
    let lastProblem = '';
    // An order may ask for fewer tries than the sandbox makes (a stress run shrinking a failure), never more.
    const tries = Math.min(policy.attempts, order.Tries ?? policy.attempts);
    for (let attempt = 1; attempt <= tries; attempt++) {
      const startedAt = deps.clock();
      const fault = deps.faults?.pick({ direction: 'outbound', method: 'POST', path: new URL(url).pathname, locationId: order.LocationId, orderId: order.OrderId }).fired;
      // A fresh token per send: a retry after a long timeout must not carry a token close to expiry.
      const headers = () => {
        const token = serviceTokenFor(fault, { posName: partner.name, key: deps.key, locationId: order.LocationId, ttlSeconds: SERVICE_TOKEN_TTL_S, nowSeconds: Math.floor(deps.clock() / 1000) });
        return {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-service-locationid': order.LocationId,
          'x-request-id': requestId,
          'user-agent': `pos-sandbox/${deps.version}`,
          'x-sandbox-attempt': `${attempt} of ${tries}`,
        };
      };
      const sends = await sendThroughFault(fault, { url, headers, body, timeoutMs: policy.attemptTimeoutMs, sleep, egress: deps.egress });
      const judged = sends.map((send) => ({ ...send, verdict: judgeTokenFault(fault, judgeOrderReply(send.result), send.result.status), journalId: journal.nextId() }));
      // The send that decides the try: the first that delivered (a duplicate's copy may), else the first.
      const deciding = judged.find((send) => send.verdict.delivered) ?? judged[0]!;
      const findings =
        deciding.verdict.delivered
          ? [
              ...unknownFieldFindings(deciding.verdict.unknownFields, 'an order reply'),
              ...desk.replyFindings(orderId, deciding.verdict.externalId),
              ...duplicateFindings(judged.map((send) => send.verdict)),
              ...tokenFaultFindings(fault),
            ]
          : [];
      for (const [index, send] of judged.entries()) {
        const copy = judged.length > 1 ? { copy: index + 1 } : {};
        const outcome = send.verdict.delivered
          ? `delivered: ExternalId '${send.verdict.externalId}'${send.verdict.status ? `, ${send.verdict.status}` : ', awaiting POST /order/status'}`
          : send.verdict.problem;
        journal.redactor.remember(send.headers.authorization);
        journal.add(
          outboundEntry(
            {
              id: send.journalId,
              requestId,
              startedAt,
              latencyMs: deps.clock() - startedAt,
              url,
              headers: send.headers,
              body: send.body,
              result: send.result,
              orderId,
              locationId: order.LocationId,
              partner: partner.name,
              delivery: { dispatch, attempt, of: tries, verdict: outcome, ...copy },
              findings: send === deciding ? findings : [],
              ...(fault ? { fault: { rule: fault.rule, kind: fault.kind, source: fault.source, ...(fault.description ? { description: fault.description } : {}) } } : {}),
            },
          ),
        );
        await desk.noteAttempt(
          orderId,
          {
            dispatch,
            attempt,
            at: new Date(startedAt).toISOString(),
            requestId,
            journalId: send.journalId,
            ...(send.result.status === undefined ? {} : { httpStatus: send.result.status }),
            ...(send.verdict.delivered ? { externalId: send.verdict.externalId } : { problem: send.verdict.problem }),
            ...copy,
            ...(fault ? { fault: fault.rule } : {}),
          },
          sent,
        );
      }
      if (deciding.verdict.delivered) {
        const { verdict } = deciding;
        const status = verdict.status ?? 'AWAITING_STATUS';
        return desk.settleDelivery(orderId, { externalId: verdict.externalId, status, reason: verdict.reason, journalId: deciding.journalId }, findings);
      }
      lastProblem = deciding.verdict.problem;
      if (attempt < tries) await sleep(retryWaitMs(policy, attempt, deciding.result));
    }
    return desk.settleDelivery(orderId, { status: 'DELIVERY_FAILED', reason: `${tries} ${tries === 1 ? 'try' : 'tries'} failed; the last: ${lastProblem}` });
  };
}

/** The longest Retry-After (on a 429 or 503) taken over the backoff. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The wait before the next try: the backoff, or longer when a Retry-After asks for it. */
export function retryWaitMs(policy: DispatchPolicy, attempt: number, result: { status?: number; responseHeaders?: Record<string, string> }): number {
  const backoff = policy.retryDelaysMs[attempt - 1] ?? policy.retryDelaysMs.at(-1) ?? 0;
  const retryAfter = result.status === 429 || result.status === 503 ? result.responseHeaders?.['retry-after'] : undefined;
  const asked = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : 0;
  return Math.max(backoff, Math.min(asked, MAX_RETRY_AFTER_MS));
}
