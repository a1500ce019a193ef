/** Applies a checked menu update (§4.2): names and prices of the listed items only; everything else stays as it was. */
import type { Menu } from '../fixtures/fixture-schemas.js';
import type { MenuUpdate } from './menu-update-check.js';
import type { MenuForm } from './menu-update-shape.js';

export type MenuChange =
  | { itemId: string; field: 'Name'; from: string; to: string }
  /** `from` is null when the item had no price for that service type yet. */
  | { itemId: string; field: 'Price'; serviceType: string; from: number | null; to: number };

/** What an accepted update did, as the journal keeps it. */
export interface MenuUpdateOutcome {
  form: MenuForm;
  locationId: string;
  changes: MenuChange[];
}

/** The menu after the update, and what changed; `menu` is not modified. */
export function applyMenuUpdate(menu: Menu, update: MenuUpdate): { menu: Menu; changes: MenuChange[] } {
  const next = structuredClone(menu);
  const byId = new Map(next.Items.map((item) => [item.Id, item]));
  const changes: MenuChange[] = [];
  for (const item of update.items) {
    const stored = byId.get(item.id);
    // checkMenuUpdate has already refused Ids that are not on the menu.
    if (!stored) throw new Error(`item '${item.id}' is not on the menu of '${update.locationId}'`);
    if (stored.Name !== item.name) {
      changes.push({ itemId: item.id, field: 'Name', from: stored.Name, to: item.name });
      stored.Name = item.name;
    }
    for (const price of item.prices) {
      const current = stored.Prices.find((p) => p.ServiceType === price.slot);
      if (current?.Price === price.price) continue;
      changes.push({ itemId: item.id, field: 'Price', serviceType: price.slot, from: current?.Price ?? null, to: price.price });
      if (current) current.Price = price.price;
      else stored.Prices.push({ ServiceType: price.slot, Price: price.price });
    }
  }
  return { menu: next, changes };
}

/** `itm-fries Name "Fries" → "Curly Fries"`, `itm-fries Takeout price 390 → 420`: for logs and the CLI. */
export function describeChange(change: MenuChange): string {
  if (change.field === 'Name') return `${change.itemId} name ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}`;
  return `${change.itemId} ${change.serviceType} price ${change.from ?? '(none)'} → ${change.to}`;
}
