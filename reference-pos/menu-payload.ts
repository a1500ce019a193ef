/**
 * Pure: the driver's menu changes → a partial menu update in form A or B (§2.2), built from the POS's own
 * copy of its menu (every item must carry Id, Name, Type and Prices, so unchanged fields come from there).
 */
import type { Menu } from '../server/fixtures/fixture-schemas.js';

export interface MenuChangeRequest {
  itemId: string;
  name?: string;
  price?: number;
  serviceType?: string;
}

export function menuPayload(
  menu: Menu,
  form: 'A' | 'B',
  changes: MenuChangeRequest[],
  options: { floatPrices?: boolean } = {},
): { payload: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  const items = changes.flatMap((change) => {
    const item = menu.Items.find((candidate) => candidate.Id === change.itemId);
    if (!item) {
      problems.push(`item '${change.itemId}' is not on this POS's menu for ${menu.LocationId}`);
      return [];
    }
    // The stored menu says Takeout; form B calls the same service Pickup (§2.2).
    const stored = change.serviceType ?? 'Takeout';
    const current = item.Prices.find((price) => price.ServiceType === stored) ?? item.Prices[0]!;
    const price = change.price ?? current.Price;
    const amount = options.floatPrices ? price / 100 : price;
    const service = form === 'A' ? { ServiceType: stored } : { Service: stored === 'Takeout' ? 'Pickup' : stored };
    return [{ Id: item.Id, Name: change.name ?? item.Name, Type: item.Type, Prices: [{ ...service, Price: amount }] }];
  });
  const payload = form === 'A' ? { LocationId: menu.LocationId, Items: items } : { Items: items };
  return { payload, problems };
}
