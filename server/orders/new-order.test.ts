import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { buildOrder, lineAmount } from './new-order.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { orderSchema } from './order-schema.js';
import { PACKAGE_ROOT } from '../version.js';

const fixtures = loadFixtures(join(PACKAGE_ROOT, 'fixtures'));
const location = (id: string) => fixtures.locations.find((candidate) => candidate.id === id)!;
const build = (template: string, locationId: string, options = {}) =>
  buildOrder({ template: fixtures.templates[template]!, location: location(locationId), orderId: 'ord-1', requestId: 'req-1', createdAt: '2026-11-21T10:00:00Z', options });

describe('buildOrder', () => {
  it('prices a line per unit: quantity × (unit price + variations + modifiers)', () => {
    const line = { Quantity: 2, UnitPrice: 1150, Variations: [{ Id: 'v', Name: 'v', Price: 350 }], Modifiers: [{ Id: 'm', Name: 'm', Quantity: 1, Price: 150 }] };
    expect(lineAmount(line)).toBe(3300);
  });

  it.each([
    ['standard', 'loc-std-001', 3689, 241],
    ['hub', 'loc-hub-001-burgers', 1979, 129],
    ['hub', 'loc-hub-001-noodles', 1939, 127],
    ['kiosk', 'loc-kiosk-001', 1040, 166],
  ])('builds a valid %s order for %s totalling %i with %i included tax', (template, locationId, total, tax) => {
    const order = build(template, locationId);
    expect(orderSchema().validate(order)).toBe(true);
    expect(order).toMatchObject({ OrderId: 'ord-1', RequestId: 'req-1', LocationId: locationId, Total: total, Payment: { Amount: total } });
    expect(order.Taxes[0]!.Amount).toBe(tax);
  });

  it('gives each Hub brand its own items and names the hub and the brand', () => {
    const noodles = build('hub', 'loc-hub-001-noodles');
    expect(noodles.Items.map((item) => item.Id)).toEqual(['itm-pad-thai', 'itm-spring-rolls']);
    expect(noodles.Hub).toEqual({ HubId: 'hub-001', HubName: 'Central Kitchen', Brand: 'Noodle Bar' });
    expect(build('hub', 'loc-hub-001-burgers').Items.map((item) => item.Id)).toEqual(['itm-classic-burger', 'itm-fries']);
  });

  it('makes a prepaid kiosk order eat-in by default and Takeout when eatIn is false, with the pager number asked for', () => {
    expect(build('kiosk', 'loc-kiosk-001')).toMatchObject({ ServiceType: 'EatIn', Payment: { Prepaid: true }, Kiosk: { EatIn: true, PagerNumber: '42' } });
    expect(build('kiosk', 'loc-kiosk-001', { eatIn: false, pagerNumber: '7' })).toMatchObject({ ServiceType: 'Takeout', Kiosk: { EatIn: false, PagerNumber: '7' } });
  });

  it('keeps fees, promotions and taxes apart from the items', () => {
    const order = build('standard', 'loc-std-001');
    expect(order.Fees).toEqual([{ Type: 'Delivery', Name: 'Delivery fee', Amount: 299 }]);
    expect(order.Promotions).toEqual([{ Id: 'promo-pizza-10', Name: '10% off pizza', Amount: 330 }]);
    expect(order.Items[1]).toEqual({ Id: 'itm-lemonade', Name: 'Homemade Lemonade 0.4 l', Quantity: 1, UnitPrice: 420, Variations: [], Modifiers: [] });
  });
});
