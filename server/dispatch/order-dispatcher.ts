/**
 * Delivers an order to the POS (SANDBOX-SPEC §5): POST <posOrderUrl> with a service → POS token, up to
 * `attempts` tries with backoff, the same OrderId (and RequestId) on every try; then DELIVERY_FAILED.
 * Every try is an outbound journal entry with the POS's reply.
 */
import type { KeyObject } from 'node:crypto';
import type { PartnerIdentity } from '../config.js';
import { unknownFieldFindings } from '../domain/findings.js';
import { mintServiceToken } from '../domain/mint-pos-token.js';
import { judgeOrderReply } from '../domain/pos-order-reply.js';
import type { OrderRecord } from '../domain/order-record.js';
import type { Journal } from '../journal/journal.js';
import type { Deliver, OrderDesk } from '../processing/order-desk.js';
import { outboundEntry } from './outbound-entry.js';
import { postOrder } from './post-order.js';

export interface DispatchPolicy {
  attempts: number;
  /** No answer within this is a failed try (SANDBOX-SPEC §5: 10 s). */
  attemptTimeoutMs: number;
  /** The wait before the 2nd, 3rd … try; the last value repeats. */
  retryDelaysMs: number[];
}

export const DEFAULT_DISPATCH_POLICY: DispatchPolicy = { attempts: 3, attemptTimeoutMs: 10_000, retryDelaysMs: [1_000, 2_000] };

/** A service → POS token lives this long: long enough for one delivery, short enough to be worth checking. */
export const SERVICE_TOKEN_TTL_S = 300;

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
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function orderDelivery(deps: DispatcherDeps): Deliver {
  const { desk, journal, partner, policy } = deps;
  const sleep = deps.sleep ?? realSleep;
  return async (orderId: string): Promise<OrderRecord> => {
    const order = desk.get(orderId)!;
    const dispatch = 1 + Math.max(0, ...(order.Deliveries ?? []).map((attempt) => attempt.dispatch));
    const requestId = `req-${deps.newId()}`;
    const sent = { ...order.Order!, RequestId: requestId };
    const body = JSON.stringify(sent);
    const url = order.PosOrderUrl!;
    let lastProblem = '';
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      const startedAt = deps.clock();
      // A fresh token per try: a retry after a long timeout must not carry a token close to expiry.
      const { token } = mintServiceToken({ posName: partner.name, key: deps.key, locationId: order.LocationId, ttlSeconds: SERVICE_TOKEN_TTL_S, nowSeconds: Math.floor(startedAt / 1000) });
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-service-locationid': order.LocationId,
        'x-request-id': requestId,
        'user-agent': `pos-sandbox/${deps.version}`,
        'x-sandbox-attempt': `${attempt} of ${policy.attempts}`,
      };
      const result = await postOrder({ url, headers, body, timeoutMs: policy.attemptTimeoutMs });
      const verdict = judgeOrderReply(result);
      const findings = verdict.delivered
        ? [...unknownFieldFindings(verdict.unknownFields, 'an order reply (SANDBOX-SPEC §5)'), ...desk.replyFindings(orderId, verdict.externalId)]
        : [];
      const journalId = journal.nextId();
      const outcome = verdict.delivered ? `delivered: ExternalId '${verdict.externalId}'${verdict.status ? `, ${verdict.status}` : ', awaiting POST /order/status'}` : verdict.problem;
      journal.add(
        outboundEntry(
          {
            id: journalId,
            requestId,
            startedAt,
            latencyMs: deps.clock() - startedAt,
            url,
            headers,
            body,
            result,
            orderId,
            locationId: order.LocationId,
            partner: partner.name,
            delivery: { dispatch, attempt, of: policy.attempts, verdict: outcome },
            findings,
          },
          partner.nonProdKey,
        ),
      );
      await desk.noteAttempt(
        orderId,
        {
          dispatch,
          attempt,
          at: new Date(startedAt).toISOString(),
          requestId,
          journalId,
          ...(result.status === undefined ? {} : { httpStatus: result.status }),
          ...(verdict.delivered ? { externalId: verdict.externalId } : { problem: verdict.problem }),
        },
        sent,
      );
      if (verdict.delivered) {
        const status = verdict.status ?? 'AWAITING_STATUS';
        return desk.settleDelivery(orderId, { externalId: verdict.externalId, status, reason: verdict.reason, journalId }, findings);
      }
      lastProblem = verdict.problem;
      if (attempt < policy.attempts) await sleep(policy.retryDelaysMs[attempt - 1] ?? policy.retryDelaysMs.at(-1) ?? 0);
    }
    return desk.settleDelivery(orderId, { status: 'DELIVERY_FAILED', reason: `${policy.attempts} tries failed; the last: ${lastProblem}` });
  };
}
