/** Applies a checked menu update (§4.2): names and prices of the listed items only; everything else stays as it was. */
import type { Menu } from '../fixtures/fixture-schemas.js';
import { finding, type Finding } from '../http/findings.js';
import { SERVICE_FIELD, type MenuUpdate, type MenuForm } from './menu-update-check.js';

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

/** Copy on write: only the items that change are copied, so a menu of 500 items costs no deep clone. */
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
    // Object.assign, not a spread: items made by spreads of spreads grew slow to copy.
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

/** Findings of a valid menu update: accepted, but not what the interface asks for. */

/** §8 gives no limit, only "keep menu payloads small"; past this the sandbox says so. */
export const MENU_PAYLOAD_SOFT_LIMIT_BYTES = 64 * 1024;

/** The one value §2.2 lists for each enum-like field. */
export const LISTED_VALUES = { Type: 'Item', ServiceType: 'Takeout', Service: 'Pickup' } as const;

const SHOWN_PATHS = 5;

export function menuUpdateFindings(update: MenuUpdate, before: Menu, changes: MenuChange[]): Finding[] {
  return [
    ...undocumentedValueFindings(update),
    ...fullMenuFindings(update, before, changes),
    ...payloadSizeFindings(update.bytes),
    ...priceUnitFindings(update, before),
  ];
}

/** One finding per field and value, naming where it occurs: a 200-item menu with Type "Product" is one finding, not 200. */
function undocumentedValueFindings(update: MenuUpdate): Finding[] {
  const serviceField = SERVICE_FIELD[update.form];
  const occurrences = new Map<string, { field: keyof typeof LISTED_VALUES; value: string; paths: string[] }>();
  const note = (field: keyof typeof LISTED_VALUES, value: string, path: string) => {
    if (value === LISTED_VALUES[field]) return;
    const key = `${field}\u0000${value}`;
    const entry = occurrences.get(key) ?? { field, value, paths: [] };
    entry.paths.push(path);
    occurrences.set(key, entry);
  };
  for (const item of update.items) {
    note('Type', item.type, `${item.path}.Type`);
    for (const price of item.prices) note(serviceField, price.service, `${price.path}.${serviceField}`);
  }
  return [...occurrences.values()].map(({ field, value, paths }) =>
    finding(
      'UNDOCUMENTED_VALUE',
      `${field} ${JSON.stringify(value)} at ${listPaths(paths)}: the interface lists only ${JSON.stringify(LISTED_VALUES[field])} for ${field}; the real service may reject other values`,
    ),
  );
}

function fullMenuFindings(update: MenuUpdate, before: Menu, changes: MenuChange[]): Finding[] {
  const listed = new Set(update.items.map((item) => item.id));
  if (before.Items.length < 2 || !before.Items.every((item) => listed.has(item.Id))) return [];
  const changed = [...new Set(changes.map((change) => change.itemId))];
  if (changed.length === listed.size) return [];
  const which = changed.length === 0 ? 'none changed' : `only ${changed.length} changed (${listPaths(changed)})`;
  return [
    finding(
      'FULL_MENU_UPDATE',
      `the payload lists all ${before.Items.length} items of the menu of '${update.locationId}' but ${which}; send only the items that change: partial updates are preferred`,
    ),
  ];
}

function payloadSizeFindings(bytes: number): Finding[] {
  if (bytes <= MENU_PAYLOAD_SOFT_LIMIT_BYTES) return [];
  return [
    finding('MENU_PAYLOAD_OVER_64KIB', `the payload is ${bytes} bytes, over 64 KiB; keep menu payloads small and send only the items that change`),
  ];
}

/** A price exactly 100× or 1/100 of the current one is most likely in the wrong unit (§2.2 does not show the unit). */
function priceUnitFindings(update: MenuUpdate, before: Menu): Finding[] {
  const found: Finding[] = [];
  const byId = new Map(before.Items.map((item) => [item.Id, item]));
  for (const item of update.items) {
    const prices = byId.get(item.id)?.Prices;
    for (const price of item.prices) {
      const current = prices === undefined ? undefined : priceIn(prices, price.slot);
      if (current === undefined || current === 0) continue;
      // "About": a POS in the wrong unit usually changes the price too (990 now, 10 sent for a new 10.00).
      if (nearPrice(price.price, current * 100)) {
        found.push(
          finding(
            'PRICE_UNIT_SUSPECT',
            `${price.path}.Price is ${price.price}, ${price.price === current * 100 ? 'exactly' : 'about'} 100× the current ${current}; prices are minor units (1150 is 11.50): was it multiplied by 100 twice?`,
          ),
        );
      } else if (nearPrice(price.price * 100, current)) {
        found.push(
          finding(
            'PRICE_UNIT_SUSPECT',
            `${price.path}.Price is ${price.price}, ${price.price * 100 === current ? 'exactly' : 'about'} 1/100 of the current ${current}; prices are minor units (1150 is 11.50): was it sent in major units?`,
          ),
        );
      }
    }
  }
  return found;
}

/** How far from exactly 100× (or 1/100) a new price may be and still look like the wrong unit: 20 %. */
export const PRICE_UNIT_TOLERANCE = 0.2;

function listPaths(paths: string[]): string {
  const shown = paths.slice(0, SHOWN_PATHS).join(', ');
  return paths.length > SHOWN_PATHS ? `${shown} and ${paths.length - SHOWN_PATHS} more` : shown;
}

// Module-level helpers, not closures made per price: 500 items made 1,500 closures an update.
function nearPrice(value: number, target: number): boolean {
  return Math.abs(value - target) <= target * PRICE_UNIT_TOLERANCE;
}

function priceIn(prices: ReadonlyArray<{ ServiceType: string; Price: number }>, slot: string): number | undefined {
  for (const price of prices) if (price.ServiceType === slot) return price.Price;
  return undefined;
}
