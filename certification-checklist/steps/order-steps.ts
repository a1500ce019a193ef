/** The order steps: the POS takes, rejects, takes a resend, meets a duplicate and forged tokens; Hub and Kiosk orders. */
import type { StepId } from '../checklist-types.js';
import { deliverDecided, locationsOf, settle, withFault, type StepContext, type StepOutcome } from './step-context.js';

export const REJECTION_REASON = 'Out of stock (certification checklist)';

async function acceptedOrder(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const { orderId, actor } = await deliverDecided(ctx, 'standard', location, 'ACCEPTED');
  return { asked: { orderId, ackLimitMs: ctx.ackLimitMs }, actor, orderIds: [orderId] };
}

/** Rejected first; once REJECTED, the POS is told to take it and the sandbox resends it (§3). */
async function rejectedThenResent(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const { orderId, record, actor } = await deliverDecided(ctx, 'standard', location, 'REJECTED', REJECTION_REASON);
  if (record.Status === 'REJECTED') {
    await ctx.actor.decide({ orderId, decision: 'ACCEPTED', words: `the order ${orderId} you rejected, sent again` });
    const mark = await ctx.sandbox.journalMark();
    await ctx.sandbox.resend(orderId);
    const resent = await settle(ctx, orderId, mark);
    if (resent.Status === 'ACCEPTED' && resent.ExternalId) ctx.accepted.set(location.id, { orderId, externalId: resent.ExternalId, locationId: location.id });
  }
  return { asked: { orderId, reason: REJECTION_REASON }, actor, orderIds: [orderId] };
}

/** A fault that fires once, on a try of this order alone (match.orderId), so the order judged is the one that meets it, whatever the POS's pace. */
async function throughFault(ctx: StepContext, kind: 'duplicate' | 'bad-signature' | 'expired-token' | 'wrong-audience'): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const orderId = ctx.newOrderId();
  const rule = { match: { direction: 'outbound' as const, orderId }, action: { kind }, times: 1 };
  const { actor } = await withFault(ctx, rule, kind, () => deliverDecided(ctx, 'standard', location, 'ACCEPTED', undefined, { orderId }));
  return { asked: { orderId }, actor, orderIds: [orderId] };
}

const duplicated = (ctx: StepContext) => throughFault(ctx, 'duplicate');

/** One try carries the spoiled token; the retry is clean, so a correct POS ends up taking the order. */
const forged = (kind: 'bad-signature' | 'expired-token' | 'wrong-audience') => (ctx: StepContext) => throughFault(ctx, kind);

async function hubOrders(ctx: StepContext): Promise<StepOutcome> {
  const orderIds: string[] = [];
  let actor;
  for (const location of locationsOf(ctx, 'hub')) {
    const sent = await deliverDecided(ctx, 'hub', location, 'ACCEPTED');
    orderIds.push(sent.orderId);
    actor = sent.actor;
  }
  return { asked: { orderIds }, ...(actor ? { actor } : {}), orderIds };
}

async function kioskOrder(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'kiosk')[0]!;
  const { orderId, actor } = await deliverDecided(ctx, 'kiosk', location, 'ACCEPTED');
  return { asked: { orderId }, actor, orderIds: [orderId] };
}

export const ORDER_STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = {
  'order-accepted': acceptedOrder,
  'order-rejected-resent': rejectedThenResent,
  'order-duplicate': duplicated,
  'order-hub': hubOrders,
  'order-kiosk': kioskOrder,
  'forged-bad-signature': forged('bad-signature'),
  'forged-expired-token': forged('expired-token'),
  'forged-wrong-audience': forged('wrong-audience'),
};
