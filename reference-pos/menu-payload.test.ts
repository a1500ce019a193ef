import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { loadFixtures } from '../server/fixtures/load-fixtures.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { menuPayload } from './menu-payload.js';
import { BUGS, parseBugs } from './bugs.js';

const menu = loadFixtures(join(PACKAGE_ROOT, 'fixtures')).menus['loc-std-001']!;

describe('menuPayload', () => {
  it('builds a partial form A update from the POS menu, keeping the fields that do not change', () => {
    const { payload } = menuPayload(menu, 'A', [{ itemId: 'itm-margherita', price: 1250 }]);
    expect(payload).toEqual({ LocationId: 'loc-std-001', Items: [{ Id: 'itm-margherita', Name: 'Pizza Margherita', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1250 }] }] });
  });

  it('builds form B without LocationId, calling Takeout Pickup', () => {
    const { payload } = menuPayload(menu, 'B', [{ itemId: 'itm-margherita', name: 'Margherita' }]);
    expect(payload).toEqual({ Items: [{ Id: 'itm-margherita', Name: 'Margherita', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 1150 }] }] });
  });

  it('sends major units with decimals under the float-prices bug', () => {
    const { payload } = menuPayload(menu, 'A', [{ itemId: 'itm-margherita', price: 1250 }], { floatPrices: true });
    expect((payload.Items as Array<{ Prices: Array<{ Price: number }> }>)[0]!.Prices[0]!.Price).toBe(12.5);
  });

  it('sends the whole menu, one Description field too many, or an unknown item under the menu bugs', () => {
    const items = (bugs: Parameters<typeof menuPayload>[3], itemId = 'itm-margherita') =>
      menuPayload(menu, 'A', [{ itemId, price: 1250 }], bugs).payload.Items as Array<Record<string, unknown>>;
    expect(items({ fullMenu: true }).map((item) => item.Id)).toEqual(menu.Items.map((item) => item.Id));
    expect(items({ extraFields: true })[0]).toMatchObject({ Id: 'itm-margherita', Description: 'Pizza Margherita, as on the POS' });
    expect(items({ skipReferenceCheck: true }, 'itm-nope')).toEqual([{ Id: 'itm-nope', Name: 'itm-nope', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1250 }] }]);
  });

  it('names an item that is not on its menu', () => {
    expect(menuPayload(menu, 'A', [{ itemId: 'itm-nope' }]).problems).toEqual(["item 'itm-nope' is not on this POS's menu for loc-std-001"]);
  });
});

describe('parseBugs', () => {
  it('parses a list and refuses an unknown switch, naming the known ones', () => {
    expect(parseBugs('reuse-jti, slow-ack')).toEqual(new Set(['reuse-jti', 'slow-ack']));
    expect(() => parseBugs('reuse-jti,typo')).toThrow(`unknown --bug 'typo'; the switches are ${Object.keys(BUGS).join(', ')}`);
  });
});
