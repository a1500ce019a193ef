/**
 * Pure: every order with one part less (an item, a variation, a modifier, a fee, a promotion, a tax, the customer),
 * its amounts worked out again. The hunt takes parts out one at a time after fast-check's shrinking, for as long as
 * the order still fails the same way: what it saves is an order from which taking out any part makes the failure
 * go away.
 */
import type { StressCase } from './deliver-case.js';
import { settle } from './order-arbitrary.js';

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

/**
 * What the hunt tries, in order: whole groups first (every modifier of an item, every fee, half the items …), then
 * each part alone. A failure that costs time per try (a slow POS) is shrunk in a few tries, not one per part.
 */
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
