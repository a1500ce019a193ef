import { describe, expect, it } from '@jest/globals';
import type { Menu } from '../fixtures/fixture-schemas.js';
import { applyMenuUpdate, describeChange } from './apply-menu-update.js';
import type { ItemUpdate, MenuUpdate } from './menu-update-check.js';

const menu: Menu = {
  LocationId: 'loc-a',
  Currency: 'EUR',
  Items: [
    { Id: 'a', Name: 'Alpha', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 100 }, { ServiceType: 'Delivery', Price: 120 }], Modifiers: [{ Id: 'm', Name: 'M', Price: 5 }] },
    { Id: 'b', Name: 'Beta', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 200 }] },
  ],
};

const item = (id: string, name: string, prices: Array<[string, number]>): ItemUpdate => ({
  path: 'Items[0]',
  id,
  name,
  type: 'Item',
  prices: prices.map(([slot, price], i) => ({ path: `Items[0].Prices[${i}]`, service: slot, slot, price })),
});
const update = (...items: ItemUpdate[]): MenuUpdate => ({ form: 'A', locationId: 'loc-a', items, bytes: 100 });

describe('applyMenuUpdate', () => {
  it('changes the listed price and keeps the item’s other service types, modifiers and the other items', () => {
    const { menu: next, changes } = applyMenuUpdate(menu, update(item('a', 'Alpha', [['Takeout', 110]])));
    expect(next.Items[0]).toEqual({ ...menu.Items[0], Prices: [{ ServiceType: 'Takeout', Price: 110 }, { ServiceType: 'Delivery', Price: 120 }] });
    expect(next.Items[1]).toEqual(menu.Items[1]);
    expect(changes).toEqual([{ itemId: 'a', field: 'Price', serviceType: 'Takeout', from: 100, to: 110 }]);
  });

  it('renames, and adds a price for a service type the item did not have', () => {
    const { menu: next, changes } = applyMenuUpdate(menu, update(item('b', 'Bravo', [['EatIn', 250]])));
    expect(next.Items[1]).toEqual({ Id: 'b', Name: 'Bravo', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 200 }, { ServiceType: 'EatIn', Price: 250 }] });
    expect(changes).toEqual([
      { itemId: 'b', field: 'Name', from: 'Beta', to: 'Bravo' },
      { itemId: 'b', field: 'Price', serviceType: 'EatIn', from: null, to: 250 },
    ]);
  });

  it('reports no change for what is already on the menu, and never modifies the menu it is given', () => {
    const copy = structuredClone(menu);
    const { changes } = applyMenuUpdate(menu, update(item('a', 'Alpha', [['Takeout', 100]]), item('b', 'Beta 2', [['Takeout', 1]])));
    expect(changes.map((change) => change.itemId)).toEqual(['b', 'b']);
    expect(menu).toEqual(copy);
  });

  it('refuses an Id that is not on the menu: the check before it must have caught it', () => {
    expect(() => applyMenuUpdate(menu, update(item('zz', 'Z', [])))).toThrow("item 'zz' is not on the menu of 'loc-a'");
  });
});

describe('applyMenuUpdate copies on write', () => {
  it('copies only the items it changes, and leaves the menu it was given as it was, a rename and a new price included', () => {
    const before = structuredClone(menu);
    const { menu: next } = applyMenuUpdate(menu, update(item('b', 'Beta II', [['Delivery', 250]])));
    expect(menu).toEqual(before);
    expect(next.Items[0]).toBe(menu.Items[0]);
    expect(next.Items[1]).not.toBe(menu.Items[1]);
    expect(next.Items[1]).toEqual({ Id: 'b', Name: 'Beta II', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 200 }, { ServiceType: 'Delivery', Price: 250 }] });
  });
});

describe('describeChange', () => {
  it.each([
    [{ itemId: 'a', field: 'Name', from: 'Alpha', to: 'Alpha 2' } as const, 'a name "Alpha" → "Alpha 2"'],
    [{ itemId: 'a', field: 'Price', serviceType: 'Takeout', from: 100, to: 110 } as const, 'a Takeout price 100 → 110'],
    [{ itemId: 'a', field: 'Price', serviceType: 'EatIn', from: null, to: 250 } as const, 'a EatIn price (none) → 250'],
  ])('words %j as %s', (change, text) => {
    expect(describeChange(change)).toBe(text);
  });
});
