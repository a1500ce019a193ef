/**
 * Pure: the habits of a v1 integration that §9 names, recognized in any spelling a v1 client used, each with what
 * v2 wants instead, the § it comes from and the step of §9's migration it belongs to. The endpoints say them: a
 * refusal where v2 cannot understand the call, a finding where it can (docs/migrating-from-v1.md).
 */

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

/** CompanyProfileId, companyProfileId, company_profile_id, Company-Profile-Id, x-company-profile-id … */
export const isCompanyProfileId = (name: string): boolean => /^(x[-_]?)?company[-_]?profile[-_]?id$/i.test(name.trim());

/** UpdateOrderState, updateOrderState, update_order_state, update-order-state … */
export const isUpdateOrderState = (name: string): boolean => /^update[-_]?order[-_]?state$/i.test(name.trim());

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

/** The first header of a request that is a CompanyProfileId spelling, by its name as sent. */
export function companyProfileIdHeaderOf(headers: Record<string, unknown>): string | undefined {
  return Object.keys(headers).find(isCompanyProfileId);
}

/**
 * The v1 habits among a body's top-level fields: a CompanyProfileId field, or UpdateOrderState named as a field or
 * as the value of an action field. Each is the field and what v2 wants instead.
 */
export function v1BodyHabits(body: Record<string, unknown>): Array<{ field: string; instead: string }> {
  const habits: Array<{ field: string; instead: string }> = [];
  for (const [field, value] of Object.entries(body)) {
    if (isCompanyProfileId(field)) habits.push({ field, instead: companyProfileIdField(field) });
    else if (isUpdateOrderState(field) || (/^(action|operation|method)$/i.test(field) && typeof value === 'string' && isUpdateOrderState(value))) {
      habits.push({ field, instead: `${field}${isUpdateOrderState(field) ? '' : ` '${String(value)}'`} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}` });
    }
  }
  return habits;
}

/**
 * A call that waits for a refund's result: v1's flow answered it, v2's is asynchronous (§9) and never tells the POS
 * (§1). Seen as a read of the refund endpoint (GET or HEAD /order/refund) or any path below it (/order/refund/{id},
 * /order/refund/status …), under any mount; `routePath` is the path without its mount, in lower case.
 */
export function waitsForRefundResult(method: string, routePath: string): boolean {
  return ((method === 'GET' || method === 'HEAD') && routePath === '/order/refund') || routePath.startsWith('/order/refund/');
}

export const REFUND_RESULT_INSTEAD = `v1 waited for a refund's result; v2 has none to wait for: POST /v2/order/refund answers 200 once the refund is accepted, and its outcome is never sent to the POS (§1, §4.1; §9: the call flow is asynchronous; ${stepOf('handle status management')})`;
