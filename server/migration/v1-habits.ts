/** Pure: the habits of a v1 integration that §9 names, in any spelling, each with what v2 wants instead, its § and its migration step. */
import { withoutTrailingSlashes } from '../http/route.js';

/** §9's migration order, the steps numbered as the interface lists them. */
export const MIGRATION_STEPS = [
  'update authentication',
  'adjust endpoints',
  'refactor payloads',
  'handle status management',
  'validate menu synchronization',
  'test in the sandbox',
  'certify and go live',
] as const;

export type MigrationStep = (typeof MIGRATION_STEPS)[number];

/** "step 3 of §9's migration, refactor payloads" */
export const stepOf = (step: MigrationStep): string => `step ${MIGRATION_STEPS.indexOf(step) + 1} of §9's migration, ${step}`;

// Module constants, tried on every header of every call.
const COMPANY_PROFILE_ID = /^(x[-_]?)?(service[-_]?)?company[-_]?profile[-_]?id$/i;
const UPDATE_ORDER_STATE = /^update[-_]?order[-_]?state(\.\w{1,8})?$/i;
const PREFER_WAIT = /\bwait\s*=/i;
const REFUND_BELOW = /^\/(order\/)?refunds?(\/|$)/;
const ORDER_REFUND_BELOW = /^\/order\/[^/]+\/refunds?(\/|$)/;

/** CompanyProfileId, companyProfileId, company_profile_id, Company-Profile-Id, x-company-profile-id, x-service-companyprofileid … */
export const isCompanyProfileId = (name: string): boolean => COMPANY_PROFILE_ID.test(name.trim());

/** UpdateOrderState, updateOrderState, update_order_state, update-order-state, UpdateOrderState.json … */
export const isUpdateOrderState = (name: string): boolean => UPDATE_ORDER_STATE.test(name.trim());

/** The last segment of a path, percent-decoded where it can be (Update%4FrderState is UpdateOrderState). */
export function lastSegment(path: string): string {
  // Not /\/+$/: on a run of slashes that does not end the path it is quadratic (16,000 slashes and an x: 1.4 s).
  const last = withoutTrailingSlashes(path).split('/').at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** What a body field named `field` (a CompanyProfileId) is instead, in v2. */
export function companyProfileIdField(field: string): string {
  return `${field} is v1's CompanyProfileId: v2 names the location LocationId (form A's body) and sends it in the x-service-locationid header on every call (§9: LocationId replaces CompanyProfileId; ${stepOf('refactor payloads')})`;
}

/** What a header named `header` (a CompanyProfileId) is instead, in v2. */
export function companyProfileIdHeader(header: string): string {
  return `header ${header} is v1's CompanyProfileId: v2 sends the location in x-service-locationid (§4; §9: LocationId replaces CompanyProfileId; ${stepOf('refactor payloads')})`;
}

/** How v2 decides an order where v1 called UpdateOrderState. */
export const UPDATE_ORDER_STATE_INSTEAD = `v2 decides an order with POST /v2/order/status {"ExternalId", "Status": "ACCEPTED"|"REJECTED", "Reason"?} (§3; §9: v1's UpdateOrderState is gone; ${stepOf('handle status management')})`;

/** Why a POS waiting for a refund's result waits for nothing. */
export const REFUND_RESULT_INSTEAD = `v1 waited for a refund's result; v2 has none to wait for: POST /v2/order/refund answers 200 once the refund is accepted, and its outcome is never sent to the POS (§1, §4.1; §9: the call flow is asynchronous; ${stepOf('handle status management')})`;

/** The first header of a request that is a CompanyProfileId spelling, by its name as sent. */
export function companyProfileIdHeaderOf(headers: Record<string, unknown>): string | undefined {
  for (const name in headers) if (isCompanyProfileId(name)) return name;
  return undefined;
}

const ACTION_FIELD = /^(action|operation|method|command)$/i;

/** How deep, and over how many fields, a body is searched: a hostile body of a million nested fields costs no more. */
const MAX_DEPTH = 8;
const MAX_FIELDS = 2000;

export interface BodyHabit {
  /** The top-level field it is in (what an unknown-field finding would name). */
  field: string;
  /** Where it is: `CompanyProfileId`, `Order.CompanyProfileId`, `Items[0].company_profile_id`. */
  at: string;
  instead: string;
}

/** At any depth: a CompanyProfileId field, UpdateOrderState as a field or an action's value. */
export function v1BodyHabits(body: Record<string, unknown>): BodyHabit[] {
  const habits: BodyHabit[] = [];
  let visited = 0;
  const walk = (value: unknown, at: string, top: string, depth: number): void => {
    if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
    const entries = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item] as const) : Object.entries(value).map(([key, item]) => [key, item] as const);
    for (const [key, item] of entries) {
      if (++visited > MAX_FIELDS) return;
      const here = key.startsWith('[') ? `${at}${key}` : at === '' ? key : `${at}.${key}`;
      const field = top === '' ? key : top;
      if (!key.startsWith('[') && isCompanyProfileId(key)) habits.push({ field, at: here, instead: companyProfileIdField(here) });
      else if (!key.startsWith('[') && (isUpdateOrderState(key) || (ACTION_FIELD.test(key) && typeof item === 'string' && isUpdateOrderState(item)))) {
        habits.push({ field, at: here, instead: `${here}${isUpdateOrderState(key) ? '' : ` '${String(item)}'`} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}` });
      } else walk(item, here, field, depth + 1);
    }
  };
  walk(body, '', '', 0);
  return habits;
}

/** A CompanyProfileId parameter, UpdateOrderState as a parameter or an action's value (a credential is authentication's business). */
export function v1QueryHabits(query: Record<string, unknown>): string[] {
  const habits: string[] = [];
  for (const [name, raw] of Object.entries(query)) {
    const value = Array.isArray(raw) ? raw.join(',') : typeof raw === 'string' ? raw : '';
    if (isCompanyProfileId(name)) habits.push(`query parameter ${name} is v1's CompanyProfileId: v2 sends the location in the x-service-locationid header, never in the URL (§4; §9: LocationId replaces CompanyProfileId; ${stepOf('refactor payloads')})`);
    else if (isUpdateOrderState(name) || (ACTION_FIELD.test(name) && isUpdateOrderState(value))) habits.push(`query parameter ${name}${isUpdateOrderState(name) ? '' : `=${value}`} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}`);
  }
  return habits;
}

/** Version header values that name v1. */
const V1_VERSION = /^\s*v?1(\.\d+)*\s*$/i;

/** A version header naming v1, UpdateOrderState as a value, a refund asking to wait for its result (Prefer: wait=…). */
export function v1HeaderHabits(headers: Record<string, string | string[] | undefined>, versionHeaders: readonly string[], refund: boolean): string[] {
  const habits: string[] = [];
  // for…in, not Object.entries: no pair array made for each header of each call (over a plain object it visits the same names).
  for (const name in headers) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
    if (versionHeaders.includes(name) && V1_VERSION.test(value)) habits.push(`header ${name}: ${value.trim()} names v1; this interface is Open API v2: send ${name}: 2 (§5 migration notes; §9; ${stepOf('update authentication')})`);
    else if (name !== 'authorization' && isUpdateOrderState(value)) habits.push(`header ${name}: ${value.trim()} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}`);
    else if (refund && name === 'prefer' && PREFER_WAIT.test(value)) habits.push(`header prefer: ${value.trim()} asks to wait: ${REFUND_RESULT_INSTEAD}`);
  }
  return habits;
}

/** v1 waited for a refund's result; v2 never tells the POS (§1): a read of the refund endpoint or below it, under any mount. */
export function waitsForRefundResult(method: string, routePath: string): boolean {
  if (routePath === '/order/refund') return method === 'GET' || method === 'HEAD';
  // /order/refund/{id}, /order/refunds/{id}, /order/{id}/refund, /refund/status, /refunds …
  return REFUND_BELOW.test(routePath) || ORDER_REFUND_BELOW.test(routePath);
}
