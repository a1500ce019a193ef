import { describe, expect, it } from '@jest/globals';
import type { Menu } from '../fixtures/fixture-schemas.js';
import { applyMenuUpdate, MENU_PAYLOAD_SOFT_LIMIT_BYTES, menuUpdateFindings } from './apply-menu-update.js';
import type { MenuUpdate, MenuForm } from './menu-update-check.js';

const menu: Menu = {
  LocationId: 'loc-a',
  Items: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => ({ Id: id, Name: id.toUpperCase(), Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: (i + 1) * 100 }] })),
};

/** An update of the given items: [id, type, service as sent, price]. */
function update(form: MenuForm, rows: Array<[string, string, string, number]>, bytes = 200): MenuUpdate {
  return {
    form,
    locationId: 'loc-a',
    bytes,
    items: rows.map(([id, type, service, price], i) => ({
      path: `Items[${i}]`,
      id,
      name: id.toUpperCase(),
      type,
      prices: [{ path: `Items[${i}].Prices[0]`, service, slot: form === 'B' && service === 'Pickup' ? 'Takeout' : service, price }],
    })),
  };
}

const findingsOf = (u: MenuUpdate) => menuUpdateFindings(u, menu, applyMenuUpdate(menu, u).changes);

describe('menuUpdateFindings', () => {
  it('finds nothing in a clean partial update, in either form', () => {
    expect(findingsOf(update('A', [['a', 'Item', 'Takeout', 150]]))).toEqual([]);
    expect(findingsOf(update('B', [['a', 'Item', 'Pickup', 150]]))).toEqual([]);
  });

  it('gives one UNDOCUMENTED_VALUE finding per field and value, naming at most five places', () => {
    const rows = menu.Items.map((item): [string, string, string, number] => [item.Id, 'Product', 'Takeout', 1]);
    const found = findingsOf(update('A', rows.slice(0, 6)));
    expect(found.filter((f) => f.code === 'UNDOCUMENTED_VALUE')).toEqual([
      {
        code: 'UNDOCUMENTED_VALUE',
        section: '§2.2',
        message:
          'Type "Product" at Items[0].Type, Items[1].Type, Items[2].Type, Items[3].Type, Items[4].Type and 1 more: the interface lists only "Item" for Type; the real service may reject other values',
      },
    ]);
  });

  it.each([
    ['A', 'Delivery', 'ServiceType "Delivery" at Items[0].Prices[0].ServiceType: the interface lists only "Takeout" for ServiceType; the real service may reject other values'],
    ['A', 'Pickup', 'ServiceType "Pickup" at Items[0].Prices[0].ServiceType: the interface lists only "Takeout" for ServiceType; the real service may reject other values'],
    ['B', 'Takeout', 'Service "Takeout" at Items[0].Prices[0].Service: the interface lists only "Pickup" for Service; the real service may reject other values'],
  ] as const)('finds form %s service value %s undocumented', (form, service, message) => {
    expect(findingsOf(update(form, [['a', 'Item', service, 150]]))).toEqual([{ code: 'UNDOCUMENTED_VALUE', section: '§2.2', message }]);
  });

  it('finds a full menu where only some items changed, and not one where all did', () => {
    const unchanged = menu.Items.map((item): [string, string, string, number] => [item.Id, 'Item', 'Takeout', item.Prices[0]!.Price]);
    const someChanged = unchanged.map((row, i): [string, string, string, number] => (i < 2 ? [row[0], row[1], row[2], row[3] + 1] : row));
    expect(findingsOf(update('A', someChanged))).toEqual([
      {
        code: 'FULL_MENU_UPDATE',
        section: '§4.2 rule 2',
        message: "the payload lists all 7 items of the menu of 'loc-a' but only 2 changed (a, b); send only the items that change: partial updates are preferred",
      },
    ]);
    expect(findingsOf(update('A', unchanged))[0]?.message).toContain('but none changed');
    expect(findingsOf(update('A', unchanged.map(([id, type, service, price]) => [id, type, service, price + 1])))).toEqual([]);
  });

  it('finds a payload over 64 KiB, and not one of exactly 64 KiB', () => {
    expect(findingsOf(update('A', [['a', 'Item', 'Takeout', 150]], MENU_PAYLOAD_SOFT_LIMIT_BYTES))).toEqual([]);
    expect(findingsOf(update('A', [['a', 'Item', 'Takeout', 150]], 70_000))).toEqual([
      {
        code: 'MENU_PAYLOAD_OVER_64KIB',
        section: '§4.2 rule 3, §8',
        message: 'the payload is 70000 bytes, over 64 KiB; keep menu payloads small and send only the items that change',
      },
    ]);
  });

  it.each([
    [10_000, 'Items[0].Prices[0].Price is 10000, exactly 100× the current 100; prices are minor units (1150 is 11.50): was it multiplied by 100 twice?'],
    [1, 'Items[0].Prices[0].Price is 1, exactly 1/100 of the current 100; prices are minor units (1150 is 11.50): was it sent in major units?'],
  ])('finds a price of %i for a current 100 in the wrong unit', (price, message) => {
    expect(findingsOf(update('A', [['a', 'Item', 'Takeout', price]]))).toEqual([{ code: 'PRICE_UNIT_SUSPECT', section: '§2.2', message }]);
  });

  it.each([
    [990, 10, 'Items[0].Prices[0].Price is 10, about 1/100 of the current 990; prices are minor units (1150 is 11.50): was it sent in major units?'],
    [990, 110_000, 'Items[0].Prices[0].Price is 110000, about 100× the current 990; prices are minor units (1150 is 11.50): was it multiplied by 100 twice?'],
  ])('finds a price in the wrong unit that also changed: current %i, sent %i', (current, price, message) => {
    const menu: Menu = { LocationId: 'loc-a', Items: [{ Id: 'a', Name: 'A', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: current }] }] };
    expect(menuUpdateFindings(update('A', [['a', 'Item', 'Takeout', price]]), menu, [])).toEqual([{ code: 'PRICE_UNIT_SUSPECT', section: '§2.2', message }]);
  });

  it.each([
    [990, 7],
    [990, 1000],
    [990, 50_000],
  ])('does not call a real price change suspect: current %i, sent %i', (current, price) => {
    const menu: Menu = { LocationId: 'loc-a', Items: [{ Id: 'a', Name: 'A', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: current }] }] };
    expect(menuUpdateFindings(update('A', [['a', 'Item', 'Takeout', price]]), menu, [])).toEqual([]);
  });

  it('does not call a price suspect when the current price is 0 or there is none for that service type', () => {
    const free: Menu = { LocationId: 'loc-a', Items: [{ Id: 'a', Name: 'A', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 0 }] }] };
    const u = update('A', [['a', 'Item', 'Takeout', 0]]);
    expect(menuUpdateFindings(u, free, [])).toEqual([]);
    expect(findingsOf(update('A', [['a', 'Item', 'EatIn', 10_000]])).map((f) => f.code)).toEqual(['UNDOCUMENTED_VALUE']);
  });
});
