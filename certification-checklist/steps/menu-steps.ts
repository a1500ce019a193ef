/** The menu steps: partial and full updates, an unknown item, a VALIDATION_ERROR, and the Hub brand and Kiosk locations. */
import type { Location, Menu } from '../../server/fixtures/fixture-schemas.js';
import type { StepId } from '../checklist-types.js';
import type { ExpectedPrice } from '../items/menu-items.js';
import { isMenu } from '../traffic.js';
import { locationsOf, patienceFor, waitForEntries, watchWindow, withFault, type StepContext, type StepOutcome } from './step-context.js';

/** A new price for an item: its takeout price plus 10 minor units, so every run changes something. */
function newPrice(item: Menu['Items'][number]): number {
  const current = item.Prices.find((price) => price.ServiceType === 'Takeout') ?? item.Prices[0];
  return (current?.Price ?? 0) + 10;
}

/** Asks the POS to set `prices` at one location, and waits for the update to reach the sandbox. */
async function askPrices(ctx: StepContext, location: Location, prices: ExpectedPrice[], words: string) {
  const mark = await ctx.sandbox.journalMark();
  const actor = await ctx.actor.menu({
    sandboxUrl: ctx.sandbox.baseUrl,
    locationId: location.id,
    form: ctx.form,
    changes: prices.map((price) => ({ itemId: price.itemId, price: price.price })),
    words: `${words} at ${location.name} (${location.id}), and send the update in form ${ctx.form}`,
  });
  await waitForEntries(ctx, `a menu update for ${location.id}`, mark, (entries) => entries.some(isMenu), patienceFor(ctx, actor));
  return actor;
}

/** One item's price at the first location of `kind` (every location of it with `all`). */
function priceSteps(kind: string, all: boolean) {
  return async (ctx: StepContext): Promise<StepOutcome> => {
    const locations = all ? locationsOf(ctx, kind) : locationsOf(ctx, kind).slice(0, 1);
    const expected: ExpectedPrice[] = [];
    let actor;
    for (const location of locations) {
      const item = (await ctx.sandbox.menu(location.id)).Items[0]!;
      const price = { locationId: location.id, itemId: item.Id, price: newPrice(item) };
      expected.push(price);
      actor = await askPrices(ctx, location, [price], `change the price of ${item.Name} (${item.Id}) to ${price.price}`);
    }
    return { asked: { form: ctx.form, expected }, ...(actor ? { actor } : {}) };
  };
}

async function fullUpdate(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const menu = await ctx.sandbox.menu(location.id);
  const expected = menu.Items.map((item) => ({ locationId: location.id, itemId: item.Id, price: newPrice(item) }));
  const actor = await askPrices(ctx, location, expected, `change the price of every item (${expected.map((p) => `${p.itemId} to ${p.price}`).join(', ')})`);
  return { asked: { form: ctx.form, expected }, actor };
}

async function unknownItem(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const itemId = `itm-not-on-menu-${ctx.runTag}`;
  const mark = await ctx.sandbox.journalMark();
  const actor = await ctx.actor.menu({
    sandboxUrl: ctx.sandbox.baseUrl,
    locationId: location.id,
    form: ctx.form,
    changes: [{ itemId, price: 990 }],
    words: `try to change the price of item ${itemId}, which is not on the menu of ${location.id}, to 990: the POS should refuse before sending`,
  });
  // Nothing should come; the wait is the window in which it would.
  await waitForEntries(ctx, `an update for the unknown item ${itemId} (none should come)`, mark, (entries) => entries.some(isMenu), ctx.actor.mode === 'interactive' ? ctx.actor.waitMs : ctx.windowMs, {
    watching: true,
  });
  return { asked: { itemId, locationId: location.id }, actor };
}

async function meetsValidationError(ctx: StepContext): Promise<StepOutcome> {
  const location = locationsOf(ctx, 'standard')[0]!;
  const item = (await ctx.sandbox.menu(location.id)).Items[0]!;
  const rule = { match: { direction: 'inbound' as const, method: 'PUT', path: '/menu' }, action: { kind: 'status' as const, status: 400 } };
  const actor = await withFault(ctx, rule, 'menu-400', async () => {
    const answer = await askPrices(ctx, location, [{ locationId: location.id, itemId: item.Id, price: newPrice(item) }], `change the price of ${item.Name} (${item.Id}) to ${newPrice(item)}`);
    await watchWindow(ctx, 'retries after the VALIDATION_ERROR', ctx.windowMs);
    return answer;
  });
  return { asked: { locationId: location.id }, actor };
}

export const MENU_STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = {
  'menu-partial': priceSteps('standard', false),
  'menu-full': fullUpdate,
  'menu-unknown-item': unknownItem,
  'menu-validation-error': meetsValidationError,
  'menu-hub': priceSteps('hub', true),
  'menu-kiosk': priceSteps('kiosk', false),
};
