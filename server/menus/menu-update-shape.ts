/**
 * The shape of a PUT /menu payload (§2.2): which form it is, and every schema problem as a message
 * that names its JSON path. Mixed forms and fields other than price and name get their own words.
 */
import type { ErrorObject } from 'ajv';
import { companyProfileIdField, isCompanyProfileId, isUpdateOrderState, UPDATE_ORDER_STATE_INSTEAD } from '../migration/v1-habits.js';
import { describeValue } from '../http/describe-value.js';
import { pointerToPath, schemaMessages } from '../http/schema-messages.js';

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
