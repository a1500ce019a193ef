/** Pure: the rules MENU-03 and MENU-04 check in a menu update's body, shared with the root-cause of a refused update. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import { findingMessage } from './traffic.js';
import { isCompanyProfileId } from '../server/migration/v1-habits.js';

const TOP_FIELDS = new Set(['LocationId', 'Items']);
const ITEM_FIELDS = new Set(['Id', 'Name', 'Type', 'Prices']);
const PRICE_FIELDS = new Set(['ServiceType', 'Service', 'Price']);

/** The items of a menu body, when it had any. */
export function itemsOf(entry: JournalEntry): Array<Record<string, unknown>> {
  const items = (entry.request.body as { Items?: unknown } | undefined)?.Items;
  return Array.isArray(items) ? items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

const pricesOf = (item: Record<string, unknown>): Array<Record<string, unknown>> =>
  Array.isArray(item.Prices) ? item.Prices.filter((price): price is Record<string, unknown> => typeof price === 'object' && price !== null) : [];

/** MENU-03: the first price that is not a whole number of minor units (or the sandbox's PRICE_UNIT_SUSPECT). */
export function priceProblem(entry: JournalEntry): string | undefined {
  for (const [i, item] of itemsOf(entry).entries()) {
    for (const [j, price] of pricesOf(item).entries()) {
      if (!Number.isInteger(price.Price) || (price.Price as number) < 0) return `Items[${i}].Prices[${j}].Price is ${JSON.stringify(price.Price)}`;
    }
  }
  return findingMessage([entry], 'PRICE_UNIT_SUSPECT');
}

/** MENU-04: the first field other than price and name (and the ids and types that carry them). */
export function fieldProblem(entry: JournalEntry): string | undefined {
  const body = entry.request.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const top = Object.keys(body).find((field) => !TOP_FIELDS.has(field));
    if (top) return `the payload has a field ${top}${isCompanyProfileId(top) ? ", v1's CompanyProfileId (§9: LocationId replaces it, in the x-service-locationid header)" : ''}`;
  }
  for (const [i, item] of itemsOf(entry).entries()) {
    const field = Object.keys(item).find((name) => !ITEM_FIELDS.has(name));
    if (field) return `Items[${i}] has a field ${field}`;
    for (const [j, price] of pricesOf(item).entries()) {
      const extra = Object.keys(price).find((name) => !PRICE_FIELDS.has(name));
      if (extra) return `Items[${i}].Prices[${j}] has a field ${extra}`;
    }
  }
  return undefined;
}
