/**
 * What a menu update refers to: the location (header and, in form A, LocationId) and the item Ids
 * on that location's menu (§4.2 rule 3). Also what the schema cannot say: blank names and an item
 * or a service type listed twice.
 */
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import { LOCATION_HEADER, LOCATION_REQUIRED } from '../http/location-header.js';
import { SERVICE_FIELD, type MenuForm, type PathProblem } from './menu-update-shape.js';

export interface MenuReferenceContext {
  locations: readonly Location[];
  /** The location's current menu; undefined for an unknown location. */
  menuOf: (locationId: string) => Menu | undefined;
}

/** Form B's only listed service, Pickup, is the same price as form A's Takeout; the stored menu keeps form A's names. */
export function priceSlotOf(form: MenuForm, service: string): string {
  return form === 'B' && service === 'Pickup' ? 'Takeout' : service;
}

/**
 * The location problems, and the location whose menu the items are checked against: the header's
 * when it is known, else form A's LocationId when that is known.
 */
export function locationProblems(
  form: MenuForm,
  payload: Record<string, unknown>,
  header: string | undefined,
  context: MenuReferenceContext,
): { problems: PathProblem[]; target?: string } {
  const known = (id: string) => context.locations.some((location) => location.id === id);
  const problems: string[] = [];
  if (header === undefined) problems.push(LOCATION_REQUIRED);
  else if (!known(header)) problems.push(`header ${LOCATION_HEADER}: ${unknownLocation(header, context.locations)}`);

  const bodyId = form === 'A' && typeof payload.LocationId === 'string' && payload.LocationId !== '' ? payload.LocationId : undefined;
  if (bodyId !== undefined && bodyId !== header) {
    if (header !== undefined) {
      problems.push(`LocationId is '${bodyId}' but header ${LOCATION_HEADER} is '${header}'; in form A both name the same location (§2.2, §4.2)`);
    }
    if (!known(bodyId)) problems.push(`LocationId: ${unknownLocation(bodyId, context.locations)}`);
  }
  const target = header !== undefined && known(header) ? header : bodyId !== undefined && known(bodyId) ? bodyId : undefined;
  return { problems: problems.map((message) => ({ item: -1, message })), ...(target === undefined ? {} : { target }) };
}

/** §4.2 and §7: "VALIDATION_ERROR when the location ID is unknown", with what would have been right. */
function unknownLocation(id: string, locations: readonly Location[]): string {
  const base = `location ID '${id}' is unknown`;
  const brands = locations.filter((location) => location.hub?.id === id).map((location) => location.id);
  if (brands.length > 0) return `${base}: '${id}' is a hub; send one update per brand location (${brands.join(', ')})`;
  const near = locations.find((location) => location.id.toLowerCase() === id.trim().toLowerCase());
  if (near) return `${base}; did you mean '${near.id}'?`;
  const shown = locations.slice(0, 6).map((location) => location.id);
  return `${base}; known locations: ${shown.join(', ')}${locations.length > shown.length ? ', …' : ''}`;
}

/** Per item: blank name, item listed twice, Id not on the target menu, a service type priced twice. */
export function itemProblems(form: MenuForm, items: unknown, target: string | undefined, context: MenuReferenceContext): PathProblem[] {
  if (!Array.isArray(items)) return [];
  const menu = target === undefined ? undefined : context.menuOf(target);
  // A set, not a search of the menu per item: 500 items against a 500-item menu were 250,000 comparisons.
  const onMenu = new Set(menu?.Items.map((known) => known.Id));
  const firstIndex = new Map<string, number>();
  const problems: PathProblem[] = [];
  // A for loop with no closure per item: under tsx each closure made is also named, and 500 items made 1,000.
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    if (!isRecord(item)) continue;
    const path = `Items[${index}]`;
    if (typeof item.Name === 'string' && item.Name !== '' && item.Name.trim() === '') problems.push({ item: index, message: `${path}.Name must not be blank` });
    if (typeof item.Id === 'string' && item.Id !== '') {
      const first = firstIndex.get(item.Id);
      if (first === undefined) firstIndex.set(item.Id, index);
      else problems.push({ item: index, message: `${path}.Id '${item.Id}' is listed twice (first at Items[${first}]); list each item once` });
      if (menu && target !== undefined && !onMenu.has(item.Id)) {
        const message = `${path}.Id '${item.Id}' is not on the menu of location '${target}' (§4.2 rule 3: check item IDs before sending)${idHint(item.Id, target, context)}`;
        problems.push({ item: index, message });
      }
    }
    // One price cannot be listed twice.
    if (Array.isArray(item.Prices) && item.Prices.length > 1) duplicatePriceProblems(item.Prices, path, form, (message) => problems.push({ item: index, message }));
  }
  return problems;
}

function duplicatePriceProblems(prices: unknown[], path: string, form: MenuForm, add: (message: string) => void): void {
  const field = SERVICE_FIELD[form];
  const firstIndex = new Map<string, number>();
  prices.forEach((price: unknown, index) => {
    if (!isRecord(price) || typeof price[field] !== 'string') return;
    const slot = priceSlotOf(form, price[field]);
    const first = firstIndex.get(slot);
    if (first === undefined) firstIndex.set(slot, index);
    else add(`${path}.Prices[${index}] sets the ${slot} price again (first at ${path}.Prices[${first}]); give one price per service type`);
  });
}

/** Why an Id is not on the menu, when the sandbox can tell. */
function idHint(id: string, target: string, context: MenuReferenceContext): string {
  const menu = context.menuOf(target);
  if (menu?.Items.some((item) => item.Id === id.trim())) return `; it has spaces around it`;
  for (const item of menu?.Items ?? []) {
    if (item.Variations?.some((v) => v.Id === id)) return `; it is a variation of '${item.Id}', and only items can be updated (§2.2)`;
    if (item.Modifiers?.some((m) => m.Id === id)) return `; it is a modifier of '${item.Id}', and only items can be updated (§2.2)`;
  }
  const elsewhere = context.locations.find((location) => location.id !== target && context.menuOf(location.id)?.Items.some((item) => item.Id === id));
  return elsewhere ? `; it is on the menu of location '${elsewhere.id}'` : '';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
