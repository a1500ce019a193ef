/** Pure: the driver's menu changes → a partial update in form A or B (§2.2), unchanged fields from the POS's own menu. */
import type { Menu } from '../server/fixtures/fixture-schemas.js';

export interface MenuChangeRequest {
  itemId: string;
  name?: string;
  price?: number;
  serviceType?: string;
}

/** The menu bugs of the reference POS (reference-pos/bugs.ts); all off for a correct POS. */
export interface MenuPayloadBugs {
  floatPrices?: boolean;
  extraFields?: boolean;
  skipReferenceCheck?: boolean;
  fullMenu?: boolean;
  /** Form A updates name the service with form B's field (Service), as a POS mixing the two forms would. */
  serviceInFormA?: boolean;
}

type PayloadItem = { Id: string; Name: string; Type: string; Prices: Array<Record<string, unknown>>; Description?: string };

export function menuPayload(
  menu: Menu,
  form: 'A' | 'B',
  changes: MenuChangeRequest[],
  options: MenuPayloadBugs = {},
): { payload: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  const amount = (price: number) => (options.floatPrices ? price / 100 : price);
  // The stored menu says Takeout; form B calls the same service Pickup (§2.2).
  const service = (stored: string) =>
    form === 'A' ? (options.serviceInFormA ? { Service: stored === 'Takeout' ? 'Pickup' : stored } : { ServiceType: stored }) : { Service: stored === 'Takeout' ? 'Pickup' : stored };
  const items: PayloadItem[] = [];
  for (const change of changes) {
    const item = menu.Items.find((candidate) => candidate.Id === change.itemId);
    const stored = change.serviceType ?? 'Takeout';
    if (!item) {
      // A correct POS checks its references before sending (§4.2 rule 3); the bug sends what it was given.
      if (options.skipReferenceCheck) {
        items.push({ Id: change.itemId, Name: change.name ?? change.itemId, Type: 'Item', Prices: [{ ...service(stored), Price: amount(change.price ?? 0) }] });
      } else problems.push(`item '${change.itemId}' is not on this POS's menu for ${menu.LocationId}`);
      continue;
    }
    const current = item.Prices.find((price) => price.ServiceType === stored) ?? item.Prices[0]!;
    items.push({
      Id: item.Id,
      Name: change.name ?? item.Name,
      Type: item.Type,
      Prices: [{ ...service(stored), Price: amount(change.price ?? current.Price) }],
      ...(options.extraFields ? { Description: `${item.Name}, as on the POS` } : {}),
    });
  }
  if (options.fullMenu) {
    for (const item of menu.Items) {
      if (items.some((listed) => listed.Id === item.Id)) continue;
      const current = item.Prices[0]!;
      items.push({ Id: item.Id, Name: item.Name, Type: item.Type, Prices: [{ ...service(current.ServiceType), Price: amount(current.Price) }] });
    }
  }
  const payload = form === 'A' ? { LocationId: menu.LocationId, Items: items } : { Items: items };
  return { payload, problems };
}
