/** An order delivered to the POS: up to `attempts` tries with backoff, each one HTTP POST judged by its reply and journaled, then DELIVERY_FAILED. */
import type { KeyObject } from 'node:crypto';
import type { PartnerIdentity } from '../config.js';
import { unknownFieldFindings } from '../http/findings.js';
import type { OrderRecord } from './order-rules.js';
import type { Journal } from '../journal/journal.js';
import type { Deliver, OrderDesk } from './order-desk.js';
import type { FaultRegistry } from '../faults/fault-registry.js';
import { duplicateFindings, judgeTokenFault, sendThroughFault, serviceTokenFor, tokenFaultFindings } from '../faults/outbound-fault.js';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { OPEN_EGRESS, type EgressPolicy } from '../hosted/egress.js';
import { failureMessage, guardTarget, timeoutMessage } from '../hosted/guarded-connection.js';
import { outboundEntry } from '../journal/journal-entry.js';
import { describeValue as describe } from '../http/messages.js';
import { POS_DECISIONS, type PosDecision } from './order-rules.js';

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

export interface PostOrderInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** For the whole try: connect, send, answer. */
  timeoutMs: number;
  /** A drop fault: send this many bytes of the body, then cut the connection. */
  cutAfterBytes?: number;
  egress?: EgressPolicy;
}

export interface PostOrderResult extends AttemptResult {
  responseHeaders?: Record<string, string>;
}

/** An order reply is a few hundred bytes. */
const MAX_REPLY_BYTES = 64 * 1024;

const WHAT = "the POS's order endpoint";

/** One try: the POS's answer, or why there was none. */
export function postOrder({ url, headers, body, timeoutMs, cutAfterBytes, egress = OPEN_EGRESS }: PostOrderInput): Promise<PostOrderResult> {
  // Judged at every try, not only when the order was made: the partners file may have changed since.
  const guarded = guardTarget(egress, url, WHAT);
  if (!guarded.ok) return Promise.resolve({ error: `not sent: ${guarded.problem}` });
  return new Promise((resolve) => {
    const target = guarded.url;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: PostOrderResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // Each try its own connection, so a hung POS cannot hold the next; a 3xx is an answer like any other.
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, ...(guarded.lookup ? { lookup: guarded.lookup } : {}) });
    const timer = setTimeout(() => {
      finish({ error: timeoutMessage(egress, target, WHAT, timeoutMs) });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: failureMessage(egress, error, target, WHAT) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ status: res.statusCode, error: failureMessage(egress, error, target, WHAT) }));
      res.on('end', () =>
        finish({ status: res.statusCode, bodyText: Buffer.concat(chunks).toString('utf8'), responseHeaders: flatHeaders(res.headers) }),
      );
    });
    if (cutAfterBytes === undefined) return req.end(body);
    // Headers promise the whole body; the connection is cut once part of it has gone, as a failing network does.
    req.write(Buffer.from(body).subarray(0, cutAfterBytes), () => {
      finish({ error: `connection cut after ${cutAfterBytes} bytes of the body` });
      req.destroy();
    });
  });
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

export interface AttemptResult {
  /** Absent when the POS never answered. */
  status?: number;
  bodyText?: string;
  /** Why there is no answer: a timeout, a refused or reset connection. */
  error?: string;
}

export type ReplyVerdict =
  | { delivered: true; externalId: string; status?: PosDecision; reason?: string; unknownFields: string[] }
  | { delivered: false; problem: string };

const ORDER_REPLY_FIELDS = ['ExternalId', 'Status', 'Reason'] as const;
const EXPECTED = 'a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}';

/** Only a 2xx whose body carries a non-empty ExternalId delivers, with an optional Status (ACCEPTED | REJECTED) and Reason. */
export function judgeOrderReply(result: AttemptResult): ReplyVerdict {
  if (result.error !== undefined || result.status === undefined) return { delivered: false, problem: result.error ?? 'no answer' };
  if (result.status < 200 || result.status > 299) {
    return { delivered: false, problem: `the POS answered ${result.status}; an order is delivered only by ${EXPECTED}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(result.bodyText ?? '');
  } catch {
    const shown = (result.bodyText ?? '') === '' ? 'an empty body' : 'a body that is not JSON';
    return { delivered: false, problem: `the POS answered ${result.status} with ${shown}; expected ${EXPECTED}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { delivered: false, problem: `the POS's reply must be a JSON object, got ${describe(body)}; expected ${EXPECTED}` };
  }
  const reply = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof reply.ExternalId !== 'string' || reply.ExternalId.trim() === '') {
    problems.push(`ExternalId must be a non-empty string, got ${describe(reply.ExternalId)}`);
  }
  if (reply.Status !== undefined && !(POS_DECISIONS as readonly unknown[]).includes(reply.Status)) {
    problems.push(`Status must be ACCEPTED or REJECTED, or left out to send POST /order/status later; got ${describe(reply.Status)}`);
  }
  if (reply.Reason !== undefined && typeof reply.Reason !== 'string') problems.push(`Reason must be a string, got ${describe(reply.Reason)}`);
  if (problems.length > 0) return { delivered: false, problem: `the POS's ${result.status} reply does not deliver the order: ${problems.join('; ')}` };
  return {
    delivered: true,
    externalId: reply.ExternalId as string,
    ...(reply.Status === undefined ? {} : { status: reply.Status as PosDecision }),
    ...(reply.Reason === undefined ? {} : { reason: reply.Reason as string }),
    unknownFields: Object.keys(reply).filter((field) => !(ORDER_REPLY_FIELDS as readonly string[]).includes(field)),
  };
}
