/**
 * Checks a PUT /menu request (§2.2, §4.2) in full: the body's shape, the location, the item Ids.
 * Pure: the schema validators, the locations and the menus are handed in, so the server and
 * `pos-sandbox validate-menu` give the same messages for the same payload.
 */
import type { ValidateFunction } from 'ajv';
import type { Menu } from '../fixtures/fixture-schemas.js';
import type { ParsedBody } from '../http/parse-json-body.js';
import type { MenuUpdateFormA, MenuUpdateFormB } from './menu-update-types.js';
import { isRecord, itemProblems, locationProblems, priceSlotOf, type MenuReferenceContext } from './menu-update-references.js';
import { menuFormOf, notAnObjectProblem, shapeProblems, type MenuForm, type PathProblem } from './menu-update-shape.js';

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
