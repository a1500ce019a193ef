/**
 * Pure: one order of a stress run judged from what the sandbox recorded of it: every delivery try answered 2xx with
 * an ExternalId, within the deadline; an ExternalId of its own (no other order of the run had it), the same for both
 * copies of a duplicate delivery; and a decision, in the reply's Status or a status call that followed. Each failure
 * has a kind, and a shrunk order must fail with the same kind as the one it was shrunk from.
 */
import type { OrderRecord } from '../domain/order-record.js';

export type FailureKind = '5xx' | '4xx' | 'timeout' | 'no-answer' | 'bad-reply' | 'external-id-reused' | 'duplicate-new-external-id' | 'no-decision' | 'slow';

export type Verdict = { ok: true; decidedMs: number } | { ok: false; kind: FailureKind; message: string; decidedMs?: number };

export interface Deadlines {
  /** A kiosk order must be decided this soon after it was sent: a guest waits at the screen. */
  kioskMs: number;
  /** Any other order, this soon: the sandbox's delivery timeout. */
  deliveryMs: number;
}

export const DEFAULT_DEADLINES: Deadlines = { kioskMs: 3000, deliveryMs: 10_000 };

export interface DeliveredOrder {
  record: OrderRecord;
  /** From the order sent to its decision (or to when the run stopped waiting), as the run measured it. */
  decidedMs: number;
  /** Whether the run asked the sandbox to deliver it twice (an outbound duplicate fault). */
  duplicate: boolean;
}

/** `seen`: the ExternalIds of the run's other orders, by ExternalId → OrderId. */
export function judgeDelivery(delivered: DeliveredOrder, seen: ReadonlyMap<string, string>, deadlines: Deadlines = DEFAULT_DEADLINES): Verdict {
  const { record, decidedMs } = delivered;
  const attempts = record.Deliveries ?? [];
  for (const attempt of attempts) {
    if (attempt.problem === undefined) continue;
    const where = `try ${attempt.attempt}${attempt.copy ? ` (copy ${attempt.copy})` : ''} (${attempt.journalId})`;
    if (attempt.httpStatus !== undefined && attempt.httpStatus >= 500) return failure('5xx', `the POS answered ${attempt.httpStatus} to ${where}: ${attempt.problem}`);
    if (attempt.httpStatus !== undefined && attempt.httpStatus >= 400) return failure('4xx', `the POS refused ${where} with ${attempt.httpStatus}: ${attempt.problem}`);
    if (attempt.httpStatus !== undefined) return failure('bad-reply', `the POS's reply to ${where} did not deliver the order: ${attempt.problem}`);
    if (/time/i.test(attempt.problem)) return failure('timeout', `the POS did not answer ${where} within the delivery timeout: ${attempt.problem}`);
    return failure('no-answer', `no answer from the POS to ${where}: ${attempt.problem}`);
  }
  const externalIds = [...new Set(attempts.map((attempt) => attempt.externalId).filter((id): id is string => id !== undefined))];
  if (delivered.duplicate && externalIds.length > 1) return failure('duplicate-new-external-id', `the POS gave the same order two ExternalIds (${externalIds.join(', ')}) when it was delivered twice: the ExternalId identifies the one order the POS created (§2.1)`);
  const other = externalIds.map((id) => [id, seen.get(id)] as const).find(([, orderId]) => orderId !== undefined && orderId !== record.OrderId);
  if (other) return failure('external-id-reused', `the POS answered ExternalId ${other[0]}, which it gave order ${other[1]} of this run already: the ExternalId identifies one order the POS created (§2.1)`);
  if (record.Status === 'AWAITING_STATUS') return failure('no-decision', `neither the POS's reply nor a status call decided the order within ${Math.round(decidedMs)} ms (a status call refused by the sandbox decides nothing: pos-sandbox journal tail --path /order/status)`);
  const kiosk = record.Order?.Kiosk !== undefined;
  const deadline = kiosk ? deadlines.kioskMs : deadlines.deliveryMs;
  if (decidedMs > deadline) return { ok: false, kind: 'slow', message: `the order was decided ${Math.round(decidedMs)} ms after it was sent, past the ${deadline} ms ${kiosk ? 'a kiosk guest waits' : 'of the delivery deadline'}`, decidedMs };
  return { ok: true, decidedMs };
}

const failure = (kind: FailureKind, message: string): Verdict => ({ ok: false, kind, message });
