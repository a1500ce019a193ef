/** What a step needs and the waits steps share: a wait ends once the journal holds the POS's answer, so a broken POS is judged as fast as a correct one, and each wait is recorded. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { OrderRecord } from '../../server/orders/order-rules.js';
import type { Location } from '../../server/fixtures/fixture-schemas.js';
import type { FaultRule } from '../../server/faults/fault-rule-types.js';
import type { ActorAnswer, Capability } from '../checklist-types.js';
import type { PosActor } from '../pos-actors.js';
import type { SandboxControl } from '../sandbox-control.js';
import { wasRefused } from '../refusals.js';
import { isStatusCall, namedExternalId } from '../traffic.js';

/** An order the POS took during the run, kept so refund steps can name it. */
export interface AcceptedOrder {
  orderId: string;
  externalId: string;
  locationId: string;
}

/** One wait of a step: what for, how long, and whether it ended because the POS answered. */
export interface StepWait {
  for: string;
  ms: number;
  /** `answered`: the traffic came; `timed out`: the whole wait passed without it; `window`: a fixed watch for retries. */
  ended: 'answered' | 'timed out' | 'window';
}

export interface StepContext {
  sandbox: SandboxControl;
  actor: PosActor;
  /** Where orders go; undefined: where the sandbox sends them (its --pos-order-url). */
  posOrderUrl?: string;
  form: 'A' | 'B';
  capabilities: ReadonlySet<Capability>;
  locations: readonly Location[];
  /** How long to watch for retries after the POS met an injected error. */
  windowMs: number;
  /** The sandbox's delivery timeout, the limit an acknowledgement is judged against. */
  ackLimitMs: number;
  /** Orders to refund, by location: an accepted one, or, until there is one, one the POS answered but never decided. */
  accepted: Map<string, AcceptedOrder>;
  /** A fresh OrderId for this run: chk-<run>-<n>. */
  newOrderId(): string;
  /** Unique per run: fault rule ids and unknown item ids carry it. */
  runTag: string;
  /** The waits of the step under way; the runner empties it before each step. */
  waits: StepWait[];
  /** What the run has seen of the POS's status calls, so a driven POS that never sends one costs one full wait, not one per order. */
  statusCalls: { seen: boolean; missed: boolean };
  /** A POS that took no order is not sent order after order to be refunded. */
  deliveries: { taken: boolean; failed: boolean };
}

/** What a step did: what it asked for (for the verdicts to compare), the POS's answer, the orders it is about. */
export interface StepOutcome {
  asked: Record<string, unknown>;
  actor?: ActorAnswer;
  orderIds?: string[];
}

export const locationsOf = (ctx: StepContext, kind: string): Location[] => ctx.locations.filter((location) => location.kind === kind);

/** The whole wait once the POS said it acted, a short grace when its driver refused, none when it never answered. */
export function patienceFor(ctx: StepContext, answer: ActorAnswer): number {
  if (!answer.answered) return 0;
  if (answer.status !== undefined && (answer.status < 200 || answer.status > 299)) return Math.min(ctx.windowMs, ctx.actor.waitMs);
  return ctx.actor.waitMs;
}

/** `watching`: nothing should come, so running out is a watch kept, not a POS that kept us waiting. */
async function recordedWait<T>(ctx: StepContext, what: string, limitMs: number, read: () => Promise<T>, done: (value: T) => boolean, watching = false): Promise<T> {
  const began = Date.now();
  let arrived = false;
  try {
    return await ctx.sandbox.poll(
      read,
      (value) => (arrived = done(value)),
      limitMs,
      (left) => ctx.actor.tick(left),
    );
  } finally {
    ctx.actor.done();
    ctx.waits.push({ for: what, ms: Date.now() - began, ended: arrived ? 'answered' : watching ? 'window' : 'timed out' });
  }
}

/** Waits until `enough` holds for the journal entries after `mark`, or `timeoutMs` passed; the entries so far. */
export function waitForEntries(
  ctx: StepContext,
  what: string,
  mark: string,
  enough: (entries: JournalEntry[]) => boolean,
  timeoutMs: number,
  options: { watching?: boolean } = {},
): Promise<JournalEntry[]> {
  return recordedWait(ctx, what, timeoutMs, () => ctx.sandbox.journalSince(mark), enough, options.watching);
}

/** Polls the sandbox with `read` until `done` (a refund decided, say), recording the wait. */
export function waitForRecord<T>(ctx: StepContext, what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return recordedWait(ctx, what, ctx.actor.waitMs, read, done);
}

/** Watches for `ms` (the window in which a POS that loops on an error shows itself). */
export async function watchWindow(ctx: StepContext, what: string, ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  ctx.waits.push({ for: what, ms, ended: 'window' });
}

/** Tells the POS what to decide, sends it an order, and waits for the POS's decision (or its refused status call). */
export async function deliverDecided(
  ctx: StepContext,
  template: string,
  location: Location,
  decision: 'ACCEPTED' | 'REJECTED',
  reason?: string,
  options: { keep?: boolean; orderId?: string } = {},
): Promise<{ orderId: string; record: OrderRecord; actor: ActorAnswer }> {
  const orderId = options.orderId ?? ctx.newOrderId();
  const actor = await ctx.actor.decide({ orderId, decision, ...(reason ? { reason } : {}), words: `a ${template} order for ${location.name} (${location.id})` });
  const mark = await ctx.sandbox.journalMark();
  await ctx.sandbox.createOrder({ template, locationId: location.id, orderId, ...(ctx.posOrderUrl ? { posOrderUrl: ctx.posOrderUrl } : {}) });
  const record = await settle(ctx, orderId, mark);
  if ((record.Deliveries ?? []).some((attempt) => attempt.httpStatus !== undefined && attempt.httpStatus >= 200 && attempt.httpStatus < 300)) ctx.deliveries.taken = true;
  else if (record.Status === 'DELIVERY_FAILED') ctx.deliveries.failed = true;
  // Kept for the refund steps: an accepted order, or (until one is) an order the POS answered but never decided.
  const keep = options.keep !== false && record.ExternalId !== undefined && (record.Status === 'ACCEPTED' || (record.Status === 'AWAITING_STATUS' && !ctx.accepted.has(location.id)));
  if (keep) ctx.accepted.set(location.id, { orderId, externalId: record.ExternalId!, locationId: location.id });
  return { orderId, record, actor };
}

const FINAL_ORDER_STATES = ['ACCEPTED', 'REJECTED', 'DELIVERY_FAILED', 'REFUNDED'];

/** An order AWAITING_STATUS is settled too once a status call about it is in the journal: the POS has answered. */
export async function settle(ctx: StepContext, orderId: string, mark: string): Promise<OrderRecord> {
  const driven = ctx.actor.mode === 'driver';
  // A driven POS that never sent a status call in this run already cost one full wait; later orders get a short one.
  const limit = driven && ctx.statusCalls.missed && !ctx.statusCalls.seen ? Math.min(ctx.windowMs, ctx.actor.waitMs) : ctx.actor.waitMs;
  let called = false;
  const record = await recordedWait(
    ctx,
    `the POS's decision on order ${orderId}`,
    limit,
    async () => {
      const order = await ctx.sandbox.order(orderId);
      if (FINAL_ORDER_STATES.includes(order.Status) || order.Status !== 'AWAITING_STATUS') return { order, answered: false };
      const calls = (await ctx.sandbox.journalSince(mark)).filter(isStatusCall);
      called ||= calls.length > 0;
      const answered = calls.some((entry) => entry.orderId === orderId || (order.ExternalId !== undefined && namedExternalId(entry) === order.ExternalId) || (entry.orderId === undefined && wasRefused(entry)));
      // Read again: a status call that landed between the two reads decided the order since.
      return { order: answered ? await ctx.sandbox.order(orderId) : order, answered };
    },
    ({ order, answered }) => FINAL_ORDER_STATES.includes(order.Status) || answered,
  );
  if (called || record.order.History?.some((change) => change.by === 'pos-status')) ctx.statusCalls.seen = true;
  else if (record.order.Status === 'AWAITING_STATUS') ctx.statusCalls.missed = true;
  return record.order;
}

/** An order the POS took here (or answered with an ExternalId), kept or new, never another location's: a step about one Hub brand must not refund another's. */
export async function ensureAccepted(ctx: StepContext, template: string, location: Location): Promise<AcceptedOrder | { missing: string }> {
  // A new one is kept (deliverDecided), even answered but undecided, so the next refund step of this location does not send (and wait for) another.
  return ctx.accepted.get(location.id) ?? (await orderOfItsOwn(ctx, template, location));
}

/** `keep: false`: for this step alone, so no refund finds its order refunded by another step. */
export async function orderOfItsOwn(ctx: StepContext, template: string, location: Location, options: { keep?: boolean } = {}): Promise<AcceptedOrder | { missing: string }> {
  if (ctx.deliveries.failed && !ctx.deliveries.taken) return { missing: 'the POS took none of the orders sent to it in this run (each ended DELIVERY_FAILED, unanswered or refused), so there is no order to refund' };
  const { orderId, record } = await deliverDecided(ctx, template, location, 'ACCEPTED', undefined, options);
  if (record.ExternalId && (record.Status === 'ACCEPTED' || record.Status === 'AWAITING_STATUS')) return { orderId, externalId: record.ExternalId, locationId: location.id };
  return { missing: `order ${orderId}, sent to ${location.id} to be refunded, is ${record.Status} without an ExternalId: the POS must take it first` };
}

/** Runs `body` with a fault rule in force, and removes the rule afterwards (it may already be used up). */
export async function withFault<T>(ctx: StepContext, rule: Omit<FaultRule, 'id'>, name: string, body: () => Promise<T>): Promise<T> {
  const id = await ctx.sandbox.addFault({ ...rule, id: `checklist-${ctx.runTag}-${name}` } as FaultRule);
  try {
    return await body();
  } finally {
    await ctx.sandbox.deleteFault(id).catch(() => undefined);
  }
}
