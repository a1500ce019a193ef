/** Pure: one order of a stress run judged from what the sandbox recorded: every try answered 2xx with an ExternalId of its own in time, and a decision; each failure has a kind a shrunk order must keep. */
import type { OrderRecord } from '../orders/order-rules.js';
import type { ControlClient } from '../cli/control-client.js';
import type { GivenOrder } from '../orders/new-order.js';

export type FailureKind = '5xx' | '4xx' | 'timeout' | 'no-answer' | 'bad-reply' | 'external-id-reused' | 'duplicate-new-external-id' | 'no-decision' | 'slow';

/** The signature tells two failures of one kind apart, so a shrink keeps the very failure it was shrunk from. */
export type Verdict = { ok: true; decidedMs: number } | { ok: false; kind: FailureKind; signature: string; message: string; decidedMs?: number };

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
  /** What the POS answered to a try that did not deliver the order, by the try's journal id (its body, as the journal holds it). */
  answers?: Readonly<Record<string, unknown>>;
}

/** `seen`: the ExternalIds of the run's other orders, by ExternalId → OrderId. */
export function judgeDelivery(delivered: DeliveredOrder, seen: ReadonlyMap<string, string>, deadlines: Deadlines = DEFAULT_DEADLINES): Verdict {
  const { record, decidedMs } = delivered;
  const attempts = record.Deliveries ?? [];
  for (const attempt of attempts) {
    if (attempt.problem === undefined) continue;
    const where = `try ${attempt.attempt}${attempt.copy ? ` (copy ${attempt.copy})` : ''} (${attempt.journalId})`;
    const status = attempt.httpStatus;
    const said = answerText(delivered.answers?.[attempt.journalId]);
    const saying = said === undefined ? '' : `; it said ${said}`;
    const answered = (kind: FailureKind, message: string) => failure(kind, message + saying, `${kind} ${status} ${said === undefined ? '' : signatureOf(said)}`.trim());
    if (status !== undefined && status >= 500) return answered('5xx', `the POS answered ${status} to ${where}: ${attempt.problem}`);
    if (status !== undefined && status >= 400) return answered('4xx', `the POS refused ${where} with ${status}: ${attempt.problem}`);
    if (status !== undefined) return answered('bad-reply', `the POS's reply to ${where} did not deliver the order: ${attempt.problem}`);
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
  if (decidedMs > deadline) return { ok: false, kind: 'slow', signature: 'slow', message: `the order was decided ${Math.round(decidedMs)} ms after it was sent, past the ${deadline} ms ${kiosk ? 'a kiosk guest waits' : 'of the delivery deadline'}`, decidedMs };
  return { ok: true, decidedMs };
}

const failure = (kind: FailureKind, message: string, signature: string = kind): Verdict => ({ ok: false, kind, signature, message });

/** How much of the POS's answer a message quotes. */
const ANSWER_CHARS = 160;

/** The POS's answer to a try, quoted short: JSON as JSON, text as text; nothing for an empty one. */
export function answerText(body: unknown): string | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
}

/** An answer's words without anything holding a digit, which differ from order to order for one bug. */
export function signatureOf(said: string): string {
  return said.toLowerCase().replace(/[^\s"',:{}[\]]*\d[^\s"',:{}[\]]*/g, '#').replace(/#(?::#)+/g, '#').replace(/\s+/g, ' ').trim();
}

/** I/O: a stress order sent through the sandbox as any order is (POST /_sandbox/orders, given whole), then followed until decided or the window ends. */

/** One generated case: the order, and whether the sandbox delivers it twice (as a retry after a lost reply would). */
export interface StressCase {
  order: GivenOrder;
  duplicate: boolean;
}

/** The POS's status call comes a few milliseconds after its reply, as a rule: asked again soon, then less often. */
const DECIDED_POLL_MS = [3, 5, 10, 20, 40];
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `posOrderUrl` when not the sandbox's own; `tries` at most. */
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
