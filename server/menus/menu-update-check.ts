/** Pure: a PUT /menu (§2.2, §4.2) checked whole, so the server and `pos-sandbox validate-menu` give the same messages. */
import type { ValidateFunction, ErrorObject } from 'ajv';
import type { Menu, Location } from '../fixtures/fixture-schemas.js';
import type { ParsedBody } from '../http/json-text.js';
import type { MenuUpdateFormA, MenuUpdateFormB } from './menu-update-types.js';
import { companyProfileIdField, isCompanyProfileId, isUpdateOrderState, UPDATE_ORDER_STATE_INSTEAD } from '../migration/v1-habits.js';
import { describeValue, pointerToPath, schemaMessages } from '../http/messages.js';
import { LOCATION_HEADER, LOCATION_REQUIRED } from '../http/pos-call.js';

export interface MenuCheckContext extends MenuReferenceContext {
  validators: { A: ValidateFunction<MenuUpdateFormA>; B: ValidateFunction<MenuUpdateFormB> };
}

/** One price of the update, named as the stored menu names it (`slot`). */
export interface PriceUpdate {
  path: string;
  /** The service type as sent (ServiceType in form A, Service in form B). */
  service: string;
  slot: string;
  price: number;
}

export interface ItemUpdate {
  path: string;
  id: string;
  name: string;
  type: string;
  prices: PriceUpdate[];
}

/** A valid update, in one shape for both forms. */
export interface MenuUpdate {
  form: MenuForm;
  locationId: string;
  items: ItemUpdate[];
  bytes: number;
}

export type MenuCheck = { ok: true; update: MenuUpdate; menu: Menu } | { ok: false; form?: MenuForm; problems: string[] };

/** Every problem of the request, or the update ready to apply with the menu it applies to. */
export function checkMenuUpdate(body: ParsedBody | undefined, header: string | undefined, context: MenuCheckContext): MenuCheck {
  if (!body?.ok || !isRecord(body.value)) {
    const location = locationProblems('B', {}, header, context).problems.map((p) => p.message);
    const problem = body === undefined ? 'body is missing' : body.ok ? notAnObjectProblem(body.value) : body.problem;
    return { ok: false, problems: [...location, problem] };
  }
  const payload = body.value;
  const form = menuFormOf(payload);
  const validate = context.validators[form];
  const valid = validate(payload);
  const location = locationProblems(form, payload, header, context);
  const problems: PathProblem[] = [
    ...location.problems,
    ...shapeProblems(form, validate.errors),
    ...itemProblems(form, payload.Items, location.target, context),
  ];
  const menu = location.target === undefined ? undefined : context.menuOf(location.target);
  // Never a refusal without a reason: a known location whose menu is missing says so.
  if (menu === undefined && location.target !== undefined && location.problems.length === 0) {
    problems.push({ item: -1, message: `location '${location.target}' has no menu in the sandbox's state; POST /_sandbox/reset brings back the fixtures' menus` });
  }
  if (!valid || problems.length > 0 || menu === undefined || location.target === undefined) {
    // Stable sort: the location first, then item by item in payload order.
    return { ok: false, form, problems: problems.sort((a, b) => a.item - b.item).map((p) => p.message) };
  }
  return { ok: true, menu, update: normalize(form, payload as unknown as MenuUpdateFormA | MenuUpdateFormB, location.target, body.bytes) };
}

function normalize(form: MenuForm, payload: MenuUpdateFormA | MenuUpdateFormB, locationId: string, bytes: number): MenuUpdate {
  const items = (payload.Items as Array<MenuUpdateFormA['Items'][number] | MenuUpdateFormB['Items'][number]>).map((item, index) => ({
    path: `Items[${index}]`,
    id: item.Id,
    name: item.Name,
    type: item.Type,
    prices: item.Prices.map((price, p) => {
      const service = 'ServiceType' in price ? price.ServiceType : price.Service;
      return { path: `Items[${index}].Prices[${p}]`, service, slot: priceSlotOf(form, service), price: price.Price };
    }),
  }));
  return { form, locationId, items, bytes };
}

/** The shape (§2.2): which form, and every schema problem named by its JSON path; mixed forms and other fields get words of their own. */

export type MenuForm = 'A' | 'B';

/** Per form: the field of a price entry that names its service type (§2.2). */
export const SERVICE_FIELD = { A: 'ServiceType', B: 'Service' } as const;

/** A problem and the item it belongs to, so that problems can be listed item by item. */
export interface PathProblem {
  /** Index in Items, or -1 for the payload itself and the location. */
  item: number;
  message: string;
}

/** Form A carries LocationId in the body; form B does not (§2.2). */
export function menuFormOf(payload: Record<string, unknown>): MenuForm {
  return Object.hasOwn(payload, 'LocationId') ? 'A' : 'B';
}

export function notAnObjectProblem(payload: unknown): string {
  return `body must be a JSON object, the menu update payload of §2.2, got ${describeValue(payload)}`;
}

const PRICE_PATH = /^\/Items\/\d+\/Prices\/\d+$/;
const PRICE_HINT = '; prices are whole numbers of minor units (1150 for 11.50)';

/** Turns the schema validator's errors for `form` into one message per problem. */
export function shapeProblems(form: MenuForm, errors: ErrorObject[] | null | undefined): PathProblem[] {
  const own = SERVICE_FIELD[form];
  const other = SERVICE_FIELD[form === 'A' ? 'B' : 'A'];
  const list = errors ?? [];
  // A price entry that carries the other form's service field is one "mixed forms" problem, not two.
  const mixed = new Set(
    list
      .filter((e) => e.keyword === 'additionalProperties' && PRICE_PATH.test(e.instancePath) && e.params.additionalProperty === other)
      .map((e) => e.instancePath),
  );
  const problems: PathProblem[] = [];
  for (const error of list) {
    const item = itemIndexOf(error.instancePath);
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && params.missingProperty === own && mixed.has(error.instancePath)) continue;
    if (error.keyword === 'additionalProperties') {
      const field = String(params.additionalProperty);
      const at = fieldPath(error.instancePath, field);
      const message =
        field === other && mixed.has(error.instancePath)
          ? mixedFormsMessage(form, at)
          : isCompanyProfileId(field)
            ? companyProfileIdField(at)
            : isUpdateOrderState(field)
              ? `${at} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}`
              : `${at} is not a field of the menu update: only prices and names can be changed (§4.2 rule 1)`;
      problems.push({ item, message });
      continue;
    }
    const [message] = schemaMessages([error], 'the body');
    if (message === undefined) continue;
    const priceHint = error.instancePath.endsWith('/Price') && (error.keyword === 'type' || error.keyword === 'minimum') ? PRICE_HINT : '';
    problems.push({ item, message: message + priceHint });
  }
  return dedupe(problems);
}

function mixedFormsMessage(form: MenuForm, at: string): string {
  if (form === 'A') {
    return `${at} is a form B field, but the payload has LocationId, so it is form A, whose prices carry ServiceType; do not mix the two forms (§2.2)`;
  }
  return `${at} is a form A field, but the payload has no LocationId, so it is form B, whose prices carry Service; do not mix the two forms, or add LocationId to send form A (§2.2)`;
}

/** `/Items/2` → 2; -1 outside Items. */
export function itemIndexOf(pointer: string): number {
  const match = /^\/Items\/(\d+)/.exec(pointer);
  return match?.[1] === undefined ? -1 : Number(match[1]);
}

function fieldPath(pointer: string, field: string): string {
  return pointerToPath(`${pointer}/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`, 'the body');
}

function dedupe(problems: PathProblem[]): PathProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.message) && (seen.add(p.message), true));
}

/** What an update refers to (the location, the item Ids, §4.2 rule 3), and what the schema cannot say: blank names, an item or service type listed twice. */

export interface MenuReferenceContext {
  locations: readonly Location[];
  /** The location's current menu; undefined for an unknown location. */
  menuOf: (locationId: string) => Menu | undefined;
}

/** Form B's only listed service, Pickup, is the same price as form A's Takeout; the stored menu keeps form A's names. */
export function priceSlotOf(form: MenuForm, service: string): string {
  return form === 'B' && service === 'Pickup' ? 'Takeout' : service;
}

/** The location the items are checked against: the header's when known, else form A's LocationId. */
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
