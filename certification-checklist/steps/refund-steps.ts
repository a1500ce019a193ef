/** The refund steps: a refund of an order the POS took (standard, each Hub brand, Kiosk), and the POS meeting a 400 and an outage. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { Location } from '../../server/fixtures/fixture-schemas.js';
import type { ActorAnswer, StepId } from '../checklist-types.js';
import type { AskedRefund } from '../items/refund-items.js';
import { isRefund, succeeded } from '../traffic.js';
import { ensureAccepted, locationsOf, orderOfItsOwn, patienceFor, waitForEntries, waitForRecord, watchWindow, withFault, type StepContext, type StepOutcome } from './step-context.js';

/** A refund of an order the POS took at each location of `template` (`every`: one per Hub brand), waited until decided. */
function refundOf(template: string, orderItem: string, every = false) {
  return async (ctx: StepContext): Promise<StepOutcome> => {
    const locations = every ? locationsOf(ctx, template) : locationsOf(ctx, template).slice(0, 1);
    if (locations.length === 0) return { asked: { missing: `the sandbox has no ${template} location` } };
    const refunds: AskedRefund[] = [];
    const missing: string[] = [];
    let actor;
    for (const location of locations) {
      const order = await ensureAccepted(ctx, template, location);
      // No order at one brand does not stop the others: a wrong refund elsewhere still fails the item.
      if ('missing' in order) {
        missing.push(order.missing);
        continue;
      }
      refunds.push({ orderId: order.orderId, externalId: order.externalId, locationId: order.locationId });
      actor = await askRefund(ctx, location, order.externalId);
    }
    return {
      asked: { refunds, ...(missing.length > 0 ? { missing: [...new Set(missing)].join('; '), blockedBy: orderItem } : {}) },
      ...(actor ? { actor } : {}),
      orderIds: refunds.map((refund) => refund.orderId),
    };
  };
}

/** One refund asked of the POS; once its call is in the journal, accepted or refused, the refund it created is waited for. */
async function askRefund(ctx: StepContext, location: Location, externalId: string) {
  const mark = await ctx.sandbox.journalMark();
  const actor = await ctx.actor.refund({ sandboxUrl: ctx.sandbox.baseUrl, locationId: location.id, externalId });
  const entries = await waitForEntries(ctx, `a refund of ${externalId}`, mark, (seen) => seen.some(isRefund), patienceFor(ctx, actor));
  // The refund is asynchronous (§4.1): an accepted one is judged by how it ended. A refused one created nothing to wait for.
  const accepted = new Set(entries.filter((entry) => isRefund(entry) && succeeded(entry)).map((entry) => entry.id));
  if (accepted.size > 0) {
    // All refunds, not those of `externalId`: a refund naming another ExternalId is the one to wait for too.
    await waitForRecord(ctx, `the sandbox to process the refund of ${externalId}`, () => ctx.sandbox.refunds(), (refunds) =>
      refunds.some((refund) => accepted.has(refund.journalId) && refund.status !== 'PENDING'),
    );
  }
  return actor;
}

/** The POS asks for a refund while the sandbox answers every refund with `status`, and is watched for a window. */
function refundMeeting(status: 400) {
  return async (ctx: StepContext): Promise<StepOutcome> => {
    const location = locationsOf(ctx, 'standard')[0]!;
    const order = await ensureAccepted(ctx, 'standard', location);
    if ('missing' in order) return { asked: { missing: order.missing, blockedBy: 'ORDER-01' } };
    const rule = { match: { direction: 'inbound' as const, path: '/order/refund' }, action: { kind: 'status' as const, status } };
    const actor = await withFault(ctx, rule, `refund-${status}`, async () => {
      const mark = await ctx.sandbox.journalMark();
      const answer = await ctx.actor.refund({ sandboxUrl: ctx.sandbox.baseUrl, locationId: order.locationId, externalId: order.externalId });
      const seen = await waitForEntries(ctx, `a refund of ${order.externalId}`, mark, (entries) => entries.some(isRefund), patienceFor(ctx, answer));
      if (seen.some(isRefund)) await watchWindow(ctx, `retries after the ${status}`, ctx.windowMs);
      return answer;
    });
    return { asked: { externalId: order.externalId, locationId: order.locationId, status, windowMs: ctx.windowMs }, actor, orderIds: [order.orderId] };
  };
}

/** The outage is a rule in force before the POS is asked, answering the first refund 503 once: whatever the POS's pace, its first send meets it, every later one a service that is back. */
async function refundThroughOutage(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  // Its own order: REFUND-01's is refunded already, so a refund retried after the outage would end ALREADY_REFUNDED.
  const order = await orderOfItsOwn(ctx, 'standard', location, { keep: false });
  if ('missing' in order) return { asked: { missing: order.missing, blockedBy: 'ORDER-01' } };
  const rule = { match: { direction: 'inbound' as const, path: '/order/refund' }, action: { kind: 'status' as const, status: 503 }, times: 1 };
  const what = `a refund of ${order.externalId}`;
  const actor = await withFault(ctx, rule, 'refund-503', async () => {
    const mark = await ctx.sandbox.journalMark();
    // The ask runs beside the waits: a POS that retries answers its driver only once it is done, after the outage.
    let answer: ActorAnswer | undefined;
    let answeredAt = 0;
    const asking = ctx.actor.refund({ sandboxUrl: ctx.sandbox.baseUrl, locationId: order.locationId, externalId: order.externalId }).then((said) => ((answer = said), (answeredAt = Date.now()), said));
    const heard = (entries: JournalEntry[]) => entries.some(isRefund) || (answer !== undefined && Date.now() - answeredAt >= patienceFor(ctx, answer));
    const met = (await waitForEntries(ctx, what, mark, heard, ctx.actor.waitMs)).some((entry) => isRefund(entry) && entry.fault !== undefined);
    if (met) {
      // The service is back: the refund must now arrive, and be decided; then the window shows whether it is sent again.
      const after = await waitForEntries(ctx, `${what} after the outage`, mark, (entries) => entries.some((entry) => isRefund(entry) && entry.fault === undefined), ctx.actor.waitMs);
      const accepted = new Set(after.filter((entry) => isRefund(entry) && succeeded(entry) && entry.fault === undefined).map((entry) => entry.id));
      if (accepted.size > 0) {
        await waitForRecord(ctx, `the sandbox to process the refund of ${order.externalId}`, () => ctx.sandbox.refunds(), (refunds) => refunds.some((refund) => accepted.has(refund.journalId) && refund.status !== 'PENDING'));
      }
      await watchWindow(ctx, 'sends after the outage', ctx.windowMs);
    }
    return asking;
  });
  const refunds: AskedRefund[] = [{ orderId: order.orderId, externalId: order.externalId, locationId: order.locationId }];
  return { asked: { refunds, externalId: order.externalId, locationId: order.locationId, status: 503, waitMs: ctx.actor.waitMs, windowMs: ctx.windowMs }, actor, orderIds: [order.orderId] };
}

export const REFUND_STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = {
  'refund-order': refundOf('standard', 'ORDER-01'),
  'refund-invalid-payload': refundMeeting(400),
  'refund-service-error': refundThroughOutage,
  'refund-hub': refundOf('hub', 'ORDER-07', true),
  'refund-kiosk': refundOf('kiosk', 'ORDER-08'),
};
