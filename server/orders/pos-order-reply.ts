/**
 * Pure: did one HTTP attempt deliver the order? only a 2xx whose body carries a
 * non-empty ExternalId does, with an optional Status (ACCEPTED | REJECTED) and Reason.
 */
import { describeValue as describe } from '../http/describe-value.js';
import { POS_DECISIONS, type PosDecision } from './order-states.js';

export interface AttemptResult {
  /** The POS's HTTP status; absent when it never answered. */
  status?: number;
  bodyText?: string;
  /** Why there is no answer: a timeout, a refused or reset connection. */
  error?: string;
}

export type ReplyVerdict =
  | { delivered: true; externalId: string; status?: PosDecision; reason?: string; unknownFields: string[] }
  | { delivered: false; problem: string };

export const ORDER_REPLY_FIELDS = ['ExternalId', 'Status', 'Reason'] as const;
const EXPECTED = 'a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}';

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
