import { describe, expect, it } from '@jest/globals';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import { loadMenuUpdateSchemas } from './menu-update-schemas.js';
import { checkMenuUpdate, type MenuCheckContext, itemIndexOf, menuFormOf } from './menu-update-check.js';

const locations: Location[] = [
  { id: 'loc-a', kind: 'standard', name: 'A' },
  { id: 'loc-b1', kind: 'hub', name: 'B1', hub: { id: 'hub-b', name: 'Hub', brand: 'one' } },
];
const menus: Record<string, Menu> = {
  'loc-a': { LocationId: 'loc-a', Items: [{ Id: 'x', Name: 'X', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 100 }] }] },
  'loc-b1': { LocationId: 'loc-b1', Items: [{ Id: 'y', Name: 'Y', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 200 }] }] },
};
const context: MenuCheckContext = { validators: loadMenuUpdateSchemas(), locations, menuOf: (id) => menus[id] };
const body = (value: unknown) => ({ ok: true as const, value, bytes: JSON.stringify(value).length });

describe('checkMenuUpdate', () => {
  it('refuses with a reason when a known location has no menu (never an empty list of problems)', () => {
    const check = checkMenuUpdate(body({ Items: [{ Id: 'x', Name: 'X', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 120 }] }] }), 'loc-a', { ...context, menuOf: () => undefined });
    expect(check).toEqual({
      ok: false,
      form: 'B',
      problems: ["location 'loc-a' has no menu in the sandbox's state; POST /_sandbox/reset brings back the fixtures' menus"],
    });
  });

  it('turns form B into the shape of form A: Pickup is the Takeout slot', () => {
    const check = checkMenuUpdate(body({ Items: [{ Id: 'x', Name: 'X', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 120 }] }] }), 'loc-a', context);
    expect(check).toEqual({
      ok: true,
      menu: menus['loc-a'],
      update: {
        form: 'B',
        locationId: 'loc-a',
        bytes: 91,
        items: [{ path: 'Items[0]', id: 'x', name: 'X', type: 'Item', prices: [{ path: 'Items[0].Prices[0]', service: 'Pickup', slot: 'Takeout', price: 120 }] }],
      },
    });
  });

  it('takes a LocationId of null as form A and says what is wrong with it', () => {
    const check = checkMenuUpdate(body({ LocationId: null, Items: [{ Id: 'x', Name: 'X', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1 }] }] }), 'loc-a', context);
    expect(check).toEqual({ ok: false, form: 'A', problems: ['LocationId must be a string, got null'] });
  });

  it('lists the location first, then the problems item by item in payload order', () => {
    const items = [
      { Id: 'nope', Name: 'X', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1 }] },
      { Id: 'x', Name: 'X', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1.5 }], Extra: 1 },
    ];
    const check = checkMenuUpdate(body({ LocationId: 'loc-a', Items: items }), undefined, context);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.problems.map((p) => p.split(' ')[0])).toEqual(['header', 'Items[0].Id', 'Items[1].Extra', 'Items[1].Prices[0].Price']);
  });

  it('checks items against form A’s LocationId when the header names no known location', () => {
    const check = checkMenuUpdate(body({ LocationId: 'loc-b1', Items: [{ Id: 'x', Name: 'X', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1 }] }] }), undefined, context);
    expect(!check.ok && check.problems).toEqual([
      'header x-service-locationid is required: the identifier of the merchant location (§4)',
      "Items[0].Id 'x' is not on the menu of location 'loc-b1' (§4.2 rule 3: check item IDs before sending); it is on the menu of location 'loc-a'",
    ]);
  });

  it('still names the header problem when the body cannot be read', () => {
    expect(checkMenuUpdate({ ok: false, problem: 'body is empty; send a JSON object', bytes: 0 }, 'hub-b', context)).toEqual({
      ok: false,
      problems: ["header x-service-locationid: location ID 'hub-b' is unknown: 'hub-b' is a hub; send one update per brand location (loc-b1)", 'body is empty; send a JSON object'],
    });
  });
});

describe('menuFormOf and itemIndexOf', () => {
  it.each([
    [{ LocationId: 'x', Items: [] }, 'A'],
    [{ LocationId: undefined }, 'A'],
    [{ Items: [] }, 'B'],
  ])('reads %j as form %s', (payload, form) => {
    expect(menuFormOf(payload)).toBe(form);
  });

  it.each([
    ['', -1],
    ['/LocationId', -1],
    ['/Items/3', 3],
    ['/Items/12/Prices/0/Price', 12],
  ])('finds the item of %s: %i', (pointer, index) => {
    expect(itemIndexOf(pointer)).toBe(index);
  });
});
