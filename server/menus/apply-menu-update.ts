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

/**
 * The menu after the update, and what changed; `menu` is not modified. Copy on write: only the items that change
 * are copied, the others are shared with `menu` (no one changes a menu in place), so 500 items cost no deep clone.
 */
export function applyMenuUpdate(menu: Menu, update: MenuUpdate): { menu: Menu; changes: MenuChange[] } {
  const items = menu.Items.slice();
  const indexOf = new Map<string, number>();
  for (let index = 0; index < items.length; index++) indexOf.set(items[index]!.Id, index);
  const changes: MenuChange[] = [];
  for (const item of update.items) {
    const index = indexOf.get(item.id);
    // checkMenuUpdate has already refused Ids that are not on the menu.
    if (index === undefined) throw new Error(`item '${item.id}' is not on the menu of '${update.locationId}'`);
    const stored = items[index]!;
    let prices = stored.Prices;
    const before = changes.length;
    if (stored.Name !== item.name) changes.push({ itemId: item.id, field: 'Name', from: stored.Name, to: item.name });
    for (const price of item.prices) {
      const current = slotIndex(prices, price.slot);
      const from = current < 0 ? undefined : prices[current]!.Price;
      if (from === price.price) continue;
      changes.push({ itemId: item.id, field: 'Price', serviceType: price.slot, from: from ?? null, to: price.price });
      if (prices === stored.Prices) prices = prices.slice();
      if (current >= 0) prices[current] = Object.assign({}, prices[current]!, { Price: price.price });
      else prices.push({ ServiceType: price.slot, Price: price.price });
    }
    // Object.assign, not a spread: spreading items that were themselves made by a spread grew slow (570 µs for 500
    // items after a few hundred updates against 230 µs, bench/server-cpu.ts).
    if (changes.length > before) items[index] = Object.assign({}, stored, { Name: item.name, Prices: prices });
  }
  return { menu: { ...menu, Items: items }, changes };
}

/** Where the price of `slot` is, or -1: a loop, not a closure made for every price of a 500-item update. */
function slotIndex(prices: ReadonlyArray<{ ServiceType: string }>, slot: string): number {
  for (let i = 0; i < prices.length; i++) if (prices[i]!.ServiceType === slot) return i;
  return -1;
}

/** `itm-fries Name "Fries" → "Curly Fries"`, `itm-fries Takeout price 390 → 420`: for logs and the CLI. */
export function describeChange(change: MenuChange): string {
  if (change.field === 'Name') return `${change.itemId} name ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}`;
  return `${change.itemId} ${change.serviceType} price ${change.from ?? '(none)'} → ${change.to}`;
}
