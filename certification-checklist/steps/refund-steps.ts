/** The refund steps: a refund of an order the POS took (standard, Hub, Kiosk), and the POS meeting a 400 and a 503. */
import type { StepId } from '../checklist-types.js';
import { isRefund } from '../traffic.js';
import { ensureAccepted, pause, waitForEntries, withFault, type StepContext, type StepOutcome } from './step-context.js';

/** Asks for a refund of an accepted `template` order and waits until the sandbox has decided it. */
function refundOf(template: string) {
  return async (ctx: StepContext): Promise<StepOutcome> => {
    const order = await ensureAccepted(ctx, template);
    if ('missing' in order) return { asked: { missing: order.missing } };
    const mark = await ctx.sandbox.journalMark();
    const actor = await ctx.actor.refund({ sandboxUrl: ctx.sandbox.baseUrl, locationId: order.locationId, externalId: order.externalId });
    const entries = await waitForEntries(ctx, mark, (seen) => seen.some(isRefund), actor.answered ? ctx.actor.waitMs : 0);
    const journalIds = new Set(entries.filter(isRefund).map((entry) => entry.id));
    if (journalIds.size > 0) {
      // The refund is asynchronous (§4.1): it is judged by how it ended, PROCESSED or FAILED.
      await ctx.sandbox.poll(
        () => ctx.sandbox.refunds(),
        (refunds) => refunds.some((refund) => journalIds.has(refund.journalId) && refund.status !== 'PENDING'),
        ctx.actor.waitMs,
      );
    }
    return { asked: { externalId: order.externalId, locationId: order.locationId, orderId: order.orderId }, actor, orderIds: [order.orderId] };
  };
}

/** The POS asks for a refund while the sandbox answers every refund with `status`, and is watched for a window. */
function refundMeeting(status: 400 | 503) {
  return async (ctx: StepContext): Promise<StepOutcome> => {
    const order = await ensureAccepted(ctx, 'standard');
    if ('missing' in order) return { asked: { missing: order.missing } };
    const rule = { match: { direction: 'inbound' as const, path: '/order/refund' }, action: { kind: 'status' as const, status } };
    const actor = await withFault(ctx, rule, `refund-${status}`, async () => {
      const mark = await ctx.sandbox.journalMark();
      const answer = await ctx.actor.refund({ sandboxUrl: ctx.sandbox.baseUrl, locationId: order.locationId, externalId: order.externalId });
      const seen = await waitForEntries(ctx, mark, (entries) => entries.some(isRefund), answer.answered ? ctx.actor.waitMs : 0);
      if (seen.some(isRefund)) await pause(ctx.windowMs);
      return answer;
    });
    return { asked: { externalId: order.externalId, locationId: order.locationId, status, windowMs: ctx.windowMs }, actor, orderIds: [order.orderId] };
  };
}

export const REFUND_STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = {
  'refund-order': refundOf('standard'),
  'refund-invalid-payload': refundMeeting(400),
  'refund-service-error': refundMeeting(503),
  'refund-hub': refundOf('hub'),
  'refund-kiosk': refundOf('kiosk'),
};
