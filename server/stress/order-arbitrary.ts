/** Pure: the orders `pos-sandbox stress` sends, as fast-check arbitraries over the order model, edge cases weighted up, totals worked out so every order is one the service could send. */
import fc from 'fast-check';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import { lineAmount, type GivenOrder } from '../orders/new-order.js';
import type { Fee, OrderItem, Promotion } from '../orders/sandbox-order-types.js';
import type { StressCase } from './delivery-verdict.js';

/** The most of each list an order gets: enough to find a POS that breaks past a size. */
export const LIMITS = { items: 40, variations: 3, modifiers: 30, quantity: 40, fees: 3, promotions: 2, taxes: 2, largeAmount: 99_999_999 } as const;

const NON_LATIN = ['拉麺', 'Шаурма', 'شاورما', 'ราดหน้า', 'Ελληνική σαλάτα', '비빔밥', 'חומוס', 'दाल मखनी'];
const EMOJI = ['🍕 Pizza', '🌶️🌶️ Hot wings', '👨‍👩‍👧 Family box', '🍔', 'Cola 🥤 0.33 l'];

/** A plain order keeps the menu's own names, so a POS that breaks on one script does not hide every other bug behind it. */
function nameArbitrary(menuNames: readonly string[], plain: boolean): fc.Arbitrary<string> {
  const menu = fc.constantFrom(...(menuNames.length > 0 ? menuNames : ['Margherita']));
  if (plain) return menu;
  return fc.oneof(
    { weight: 8, arbitrary: menu },
    { weight: 2, arbitrary: fc.constantFrom(...NON_LATIN) },
    { weight: 1, arbitrary: fc.constantFrom(...EMOJI) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).filter((name) => name.trim() !== '') },
    { weight: 1, arbitrary: fc.string({ minLength: 120, maxLength: 300, unit: 'grapheme-ascii' }).filter((name) => name.trim() !== '') },
  );
}

/** Money in minor units: ordinary prices mostly, zero and the largest now and then. */
const money = (typical: number): fc.Arbitrary<number> =>
  fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: typical }) }, { weight: 1, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: LIMITS.largeAmount }) });

const quantity = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: LIMITS.quantity }) });

const id = (prefix: string, known: readonly string[]): fc.Arbitrary<string> =>
  known.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.nat({ max: 9999 }).map((n) => `${prefix}-${n}`) }) : fc.nat({ max: 9999 }).map((n) => `${prefix}-${n}`);

function itemArbitrary(menu: Menu | undefined, plain: boolean): fc.Arbitrary<OrderItem> {
  const items = menu?.Items ?? [];
  const names = items.map((item) => item.Name);
  const ids = items.map((item) => item.Id);
  const variationIds = items.flatMap((item) => (item.Variations ?? []).map((variation) => variation.Id));
  const modifierIds = items.flatMap((item) => (item.Modifiers ?? []).map((modifier) => modifier.Id));
  const variation = fc.record({ Id: id('var', variationIds), Name: nameArbitrary(items.flatMap((item) => (item.Variations ?? []).map((v) => v.Name)), plain), Price: money(500) });
  const modifier = fc.record({ Id: id('mod', modifierIds), Name: nameArbitrary(items.flatMap((item) => (item.Modifiers ?? []).map((m) => m.Name)), plain), Quantity: fc.integer({ min: 1, max: 3 }), Price: money(300) });
  return fc.record({
    Id: id('itm', ids),
    Name: nameArbitrary(names, plain),
    Quantity: quantity,
    UnitPrice: money(2000),
    Variations: fc.array(variation, { maxLength: LIMITS.variations }),
    Modifiers: fc.array(modifier, { maxLength: LIMITS.modifiers, size: 'medium' }),
  });
}

const TAX_RATES = [0, 7, 10, 19, 20.5];

/** The location drawn beside the parts, not before them, so fast-check shrinks every part on its own. */
export function orderArbitrary(locations: readonly Location[], menus: Readonly<Record<string, Menu>>): fc.Arbitrary<GivenOrder> {
  if (locations.length === 0) throw new Error('no location to send orders to');
  // Half the orders plain-named (the first, so a shrink may go to one), half with any name.
  return fc.oneof(ordersNamed(locations, menus, true), ordersNamed(locations, menus, false));
}

function ordersNamed(locations: readonly Location[], menus: Readonly<Record<string, Menu>>, plain: boolean): fc.Arbitrary<GivenOrder> {
  const all: Menu = { LocationId: '', Currency: '', Items: locations.flatMap((location) => (Object.hasOwn(menus, location.id) ? menus[location.id]!.Items : [])) } as unknown as Menu;
  return fc
    .record({
      location: fc.constantFrom(...locations),
      items: fc.array(itemArbitrary(all, plain), { minLength: 1, maxLength: LIMITS.items, size: 'small' }),
      fees: fc.array(fc.record({ Type: fc.constantFrom('Delivery', 'Service', 'Packaging', 'Bag'), Name: nameArbitrary(['Delivery fee', 'Service fee', 'Bag'], plain), Amount: money(500) }), { maxLength: LIMITS.fees }),
      promotions: fc.array(fc.record({ Id: id('promo', []), Name: nameArbitrary(['10% off', 'Free drink'], plain), Amount: money(1500) }), { maxLength: LIMITS.promotions }),
      taxes: fc.array(fc.record({ Name: fc.constantFrom('VAT', 'City tax', 'Bottle deposit'), Rate: fc.constantFrom(...TAX_RATES), Included: fc.boolean() }), { maxLength: LIMITS.taxes }),
      channel: fc.constantFrom('marketplace', 'web', 'phone'),
      serviceType: fc.constantFrom('Delivery', 'Takeout'),
      customer: fc.option(fc.record({ Name: nameArbitrary(['Alex', 'Sam'], plain) }), { nil: undefined }),
      method: fc.constantFrom('card', 'cash', 'online'),
      prepaid: fc.boolean(),
      pager: fc.integer({ min: 1, max: 999 }),
      eatIn: fc.boolean(),
    })
    .map((parts): GivenOrder => {
      const { location } = parts;
      const kiosk = location.kind === 'kiosk';
      const fees: Fee[] = parts.fees;
      return settle({
        LocationId: location.id,
        Channel: kiosk ? 'kiosk' : parts.channel,
        ServiceType: kiosk ? (parts.eatIn ? 'EatIn' : 'Takeout') : parts.serviceType,
        Currency: location.currency,
        ...(parts.customer === undefined ? {} : { Customer: parts.customer }),
        Items: parts.items,
        Fees: fees,
        Promotions: parts.promotions,
        Taxes: parts.taxes.map((tax) => ({ ...tax, Amount: 0 })),
        Payment: { Prepaid: kiosk ? true : parts.prepaid, Method: parts.method, Amount: 0 },
        Total: 0,
        ...(location.hub ? { Hub: { HubId: location.hub.id, HubName: location.hub.name, Brand: location.hub.brand } } : {}),
        ...(kiosk ? { Kiosk: { PagerNumber: String(parts.pager), EatIn: parts.eatIn } } : {}),
      } as GivenOrder);
    });
}

/** Amounts from the parts, as a template's: a promotion takes off at most what is left, taxes on the rest, the payment is the total. */
export function settle(order: GivenOrder): GivenOrder {
  const itemsAmount = order.Items.reduce((sum, item) => sum + lineAmount(item), 0);
  let left = itemsAmount + order.Fees.reduce((sum, fee) => sum + fee.Amount, 0);
  const promotions: Promotion[] = order.Promotions.map((promotion) => {
    const amount = Math.min(promotion.Amount, left);
    left -= amount;
    return { ...promotion, Amount: amount };
  });
  const taxes = order.Taxes.map((tax) => ({ ...tax, Amount: tax.Included ? Math.round((left * tax.Rate) / (100 + tax.Rate)) : Math.round((left * tax.Rate) / 100) }));
  const total = left + taxes.filter((tax) => !tax.Included).reduce((sum, tax) => sum + tax.Amount, 0);
  return { ...order, Promotions: promotions, Taxes: taxes, Payment: { ...order.Payment, Amount: total }, Total: total };
}

/** Pure: every order with one part less, amounts worked out again, which the hunt tries after fast-check's shrinking. */

export interface PartLess {
  part: string;
  testCase: StressCase;
}

/** `testCase` with `change` made to a copy of its order, the amounts worked out again. */
function variant(testCase: StressCase, part: string, change: (copy: StressCase['order']) => void): PartLess {
  const copy = structuredClone(testCase.order);
  change(copy);
  return { part, testCase: { order: settle(copy), duplicate: testCase.duplicate } };
}

/** Whole groups first, then each part alone, so a slow POS is shrunk in a few tries. */
export function withPartsLess(testCase: StressCase): PartLess[] {
  const { order } = testCase;
  const groups: PartLess[] = [];
  const without = (part: string, change: (copy: StressCase['order']) => void) => groups.push(variant(testCase, part, change));
  const half = Math.floor(order.Items.length / 2);
  if (half > 0) {
    without('the second half of the items', (copy) => copy.Items.splice(order.Items.length - half, half));
    without('the first half of the items', (copy) => copy.Items.splice(0, half));
  }
  order.Items.forEach((item, at) => {
    if (item.Modifiers.length > 1) without(`every modifier of item ${at}`, (copy) => (copy.Items[at]!.Modifiers = []));
    if (item.Modifiers.length > 3) without(`half the modifiers of item ${at}`, (copy) => copy.Items[at]!.Modifiers.splice(0, Math.floor(item.Modifiers.length / 2)));
    if (item.Variations.length > 1) without(`every variation of item ${at}`, (copy) => (copy.Items[at]!.Variations = []));
  });
  if (order.Fees.length > 1) without('every fee', (copy) => (copy.Fees = []));
  if (order.Promotions.length > 1) without('every promotion', (copy) => (copy.Promotions = []));
  if (order.Taxes.length > 1) without('every tax', (copy) => (copy.Taxes = []));
  return [...groups, ...withOnePartLess(testCase)];
}

export function withOnePartLess(testCase: StressCase): PartLess[] {
  const { order } = testCase;
  const variants: PartLess[] = [];
  const without = (part: string, change: (copy: StressCase['order']) => void) => variants.push(variant(testCase, part, change));
  // An order has one item at least: the last is not taken out.
  if (order.Items.length > 1) order.Items.forEach((_, at) => without(`item ${at}`, (copy) => copy.Items.splice(at, 1)));
  order.Items.forEach((item, at) => {
    item.Modifiers.forEach((_, one) => without(`item ${at} modifier ${one}`, (copy) => copy.Items[at]!.Modifiers.splice(one, 1)));
    item.Variations.forEach((_, one) => without(`item ${at} variation ${one}`, (copy) => copy.Items[at]!.Variations.splice(one, 1)));
  });
  order.Fees.forEach((_, at) => without(`fee ${at}`, (copy) => copy.Fees.splice(at, 1)));
  order.Promotions.forEach((_, at) => without(`promotion ${at}`, (copy) => copy.Promotions.splice(at, 1)));
  order.Taxes.forEach((_, at) => without(`tax ${at}`, (copy) => copy.Taxes.splice(at, 1)));
  if (order.Customer !== undefined) without('customer', (copy) => delete copy.Customer);
  if (testCase.duplicate) variants.push({ part: 'the second delivery', testCase: { order, duplicate: false } });
  return variants;
}
