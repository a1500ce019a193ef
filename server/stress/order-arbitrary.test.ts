import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { checkGivenOrder, lineAmount } from '../orders/new-order.js';
import { orderSchema } from '../orders/order-schema.js';
import { fixtures } from '../test/helpers.js';
import { orderArbitrary } from './order-arbitrary.js';

const arbitrary = orderArbitrary(fixtures.locations, fixtures.menus);
const sample = fc.sample(arbitrary, { seed: 42, numRuns: 500 });

describe('the generated orders', () => {
  it('are all orders the sandbox takes whole: the model, a location of the fixtures, its Hub or Kiosk block', () => {
    const refused = sample.map((order) => checkGivenOrder(order, fixtures, orderSchema().validate)).filter((check) => !check.ok);
    expect(refused).toEqual([]);
  });

  it('add up: each total is items + fees − promotions + added taxes, never below zero, and the payment is the total', () => {
    for (const order of sample) {
      const gross = order.Items.reduce((sum, item) => sum + lineAmount(item), 0) + order.Fees.reduce((sum, fee) => sum + fee.Amount, 0) - order.Promotions.reduce((sum, promotion) => sum + promotion.Amount, 0);
      const added = order.Taxes.filter((tax) => !tax.Included).reduce((sum, tax) => sum + tax.Amount, 0);
      expect({ total: order.Total, paid: order.Payment.Amount }).toEqual({ total: gross + added, paid: gross + added });
      expect(gross).toBeGreaterThanOrEqual(0);
    }
  });

  it('weight the edge cases up: every location kind, other scripts, emoji, many modifiers, large quantities, zero totals, empty lists', () => {
    const names = sample.flatMap((order) => order.Items.map((item) => item.Name));
    const seen = {
      kinds: new Set(sample.map((order) => fixtures.locations.find((location) => location.id === order.LocationId)!.kind)).size,
      nonLatin: names.some((name) => /[^\p{Script=Latin}\P{L}]/u.test(name)),
      emoji: names.some((name) => /\p{Extended_Pictographic}/u.test(name)),
      long: names.some((name) => name.length >= 120),
      manyModifiers: sample.some((order) => order.Items.some((item) => item.Modifiers.length > 10)),
      bigQuantity: sample.some((order) => order.Items.some((item) => item.Quantity > 10)),
      manyItems: sample.some((order) => order.Items.length > 10),
      zeroTotal: sample.some((order) => order.Total === 0),
      noFees: sample.some((order) => order.Fees.length === 0 && order.Promotions.length === 0 && order.Taxes.length === 0),
      withAll: sample.some((order) => order.Fees.length > 0 && order.Promotions.length > 0 && order.Taxes.length > 0),
    };
    expect(seen).toEqual({ kinds: 3, nonLatin: true, emoji: true, long: true, manyModifiers: true, bigQuantity: true, manyItems: true, zeroTotal: true, noFees: true, withAll: true });
  });

  it('are the same for the same seed', () => {
    expect(fc.sample(arbitrary, { seed: 42, numRuns: 500 })).toEqual(sample);
  });
});
