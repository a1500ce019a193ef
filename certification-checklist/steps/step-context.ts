/** What a step needs (the sandbox, whoever makes the POS act, the run's memory) and the waits every step shares. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { OrderRecord } from '../../server/domain/order-record.js';
import type { Location } from '../../server/fixtures/fixture-schemas.js';
import type { FaultRule } from '../../server/faults/fault-rule-types.js';
import type { ActorAnswer, Capability } from '../checklist-types.js';
import type { PosActor } from '../pos-actors.js';
import type { SandboxControl } from '../sandbox-control.js';

/** An order the POS accepted during the run, kept so refund steps can name it. */
export interface AcceptedOrder {
  orderId: string;
  externalId: string;
  locationId: string;
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
  /** Orders to refund, by template (standard, hub, kiosk): accepted ones, or one the POS answered but never decided. */
  accepted: Map<string, AcceptedOrder>;
  /** A fresh OrderId for this run: chk-<run>-<n>. */
  newOrderId(): string;
  /** Unique per run: fault rule ids and unknown item ids carry it. */
  runTag: string;
}

/** What a step did: what it asked for (for the verdicts to compare), the POS's answer, the orders it is about. */
export interface StepOutcome {
  asked: Record<string, unknown>;
  actor?: ActorAnswer;
  orderIds?: string[];
}

export const locationsOf = (ctx: StepContext, kind: string): Location[] => ctx.locations.filter((location) => location.kind === kind);

/** Polls the journal (after `mark`) until `enough` holds for the entries so far, or the POS's wait is over. */
export async function waitForEntries(ctx: StepContext, mark: string, enough: (entries: JournalEntry[]) => boolean, timeoutMs = ctx.actor.waitMs): Promise<JournalEntry[]> {
  try {
    return await ctx.sandbox.poll(() => ctx.sandbox.journalSince(mark), enough, timeoutMs, (left) => ctx.actor.tick(left));
  } finally {
    ctx.actor.done();
  }
}

/** Waits `ms` (the window in which a POS that loops on an error shows itself). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tells the POS what to decide, sends it an order, and waits for the order to settle (ACCEPTED, REJECTED, DELIVERY_FAILED). */
export async function deliverDecided(
  ctx: StepContext,
  template: string,
  location: Location,
  decision: 'ACCEPTED' | 'REJECTED',
  reason?: string,
): Promise<{ orderId: string; record: OrderRecord; actor: ActorAnswer }> {
  const orderId = ctx.newOrderId();
  const actor = await ctx.actor.decide({ orderId, decision, ...(reason ? { reason } : {}), words: `a ${template} order for ${location.name} (${location.id})` });
  await ctx.sandbox.createOrder({ template, locationId: location.id, orderId, ...(ctx.posOrderUrl ? { posOrderUrl: ctx.posOrderUrl } : {}) });
  const record = await settle(ctx, orderId);
  if (record.Status === 'ACCEPTED' && record.ExternalId) ctx.accepted.set(template, { orderId, externalId: record.ExternalId, locationId: location.id });
  return { orderId, record, actor };
}

/** Waits for the order's final state, with the countdown. */
export async function settle(ctx: StepContext, orderId: string): Promise<OrderRecord> {
  try {
    return await ctx.sandbox.settledOrder(orderId, ctx.actor.waitMs, (left) => ctx.actor.tick(left));
  } finally {
    ctx.actor.done();
  }
}

/**
 * An order of `template` the POS took in this run, to refund: the one kept, or a new one (the last location of that
 * kind). One the POS answered with an ExternalId but never sent ACCEPTED for will do: its refund still shows how
 * the POS names and locates it, and the sandbox's ORDER_NOT_ACCEPTED then marks the item blocked, not failed.
 */
export async function ensureAccepted(ctx: StepContext, template: string): Promise<AcceptedOrder | { missing: string }> {
  const kept = ctx.accepted.get(template);
  if (kept) return kept;
  const location = locationsOf(ctx, template).at(-1);
  if (!location) return { missing: `the sandbox has no ${template} location` };
  const { orderId, record } = await deliverDecided(ctx, template, location, 'ACCEPTED');
  if (record.ExternalId && record.Status === 'AWAITING_STATUS') {
    // Kept too, so the next refund step of this template does not send (and wait for) another undecided order.
    const taken = { orderId, externalId: record.ExternalId, locationId: location.id };
    ctx.accepted.set(template, taken);
    return taken;
  }
  return ctx.accepted.get(template) ?? { missing: `order ${orderId}, sent to be refunded, is ${record.Status} without an ExternalId: the POS must take it first (see ORDER-01, ORDER-02)` };
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
