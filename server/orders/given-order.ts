/**
 * Pure: an order given whole in POST /_sandbox/orders ({"order": {...}}), as `pos-sandbox stress` generates them and
 * `orders replay` sends a saved one again. It is checked against the order model (order-model/), less the fields the
 * sandbox sets for every delivery (OrderId, RequestId, CreatedAt), and must be for a location of the fixtures, with
 * a Hub block for a Hub brand and a Kiosk block for a kiosk, as the templates' orders have. Its amounts are sent as
 * given: a POS may be tested with any order the model allows.
 */
import type { ErrorObject } from 'ajv';
import type { Location, OrderTemplate } from '../fixtures/fixture-schemas.js';
import type { SandboxOrder } from './sandbox-order-types.js';
import { schemaMessages } from '../http/schema-messages.js';
import { describeValue as describe } from '../http/describe-value.js';

/** What the sandbox sets on every order it sends, whatever a given order says. */
export const SANDBOX_SET_FIELDS = ['OrderId', 'RequestId', 'CreatedAt'] as const;

export type GivenOrder = Omit<SandboxOrder, (typeof SANDBOX_SET_FIELDS)[number]>;

export interface OrderValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export function checkGivenOrder(
  value: unknown,
  fixtures: { locations: readonly Location[]; templates: Record<string, OrderTemplate> },
  validate: OrderValidator,
): { ok: true; order: GivenOrder; location: Location; template: OrderTemplate } | { ok: false; problems: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problems: [`order must be a JSON object (an order of order-model/sandbox-order.schema.json), got ${describe(value)}`] };
  const given = value as Record<string, unknown>;
  // The sandbox's own values stand in for the checks; they are set again at each delivery.
  const candidate = { ...given, OrderId: 'given', RequestId: 'given', CreatedAt: '2026-01-01T00:00:00.000Z' };
  const problems = validate(candidate) ? [] : schemaMessages(validate.errors, 'order');
  const location = fixtures.locations.find((one) => one.id === given.LocationId);
  if (typeof given.LocationId === 'string' && location === undefined) problems.push(`order.LocationId ${describe(given.LocationId)} is not a location; GET /_sandbox/locations lists them`);
  if (location !== undefined) {
    if (location.kind === 'hub' && given.Hub === undefined) problems.push(`order.Hub is missing: ${location.id} is a Hub brand location, and its orders name the Hub and the brand`);
    if (location.kind !== 'hub' && given.Hub !== undefined) problems.push(`order.Hub is for Hub brand locations; ${location.id} is ${location.kind}`);
    if (location.kind === 'kiosk' && given.Kiosk === undefined) problems.push(`order.Kiosk is missing: ${location.id} is a kiosk, and its orders carry the pager and EatIn`);
    if (location.kind !== 'kiosk' && given.Kiosk !== undefined) problems.push(`order.Kiosk is for kiosk locations; ${location.id} is ${location.kind}`);
  }
  const template = location === undefined ? undefined : Object.values(fixtures.templates).find((one) => one.LocationKind === location.kind);
  if (location !== undefined && template === undefined) problems.push(`no template of the fixtures is for ${location.kind} locations, so the order has no kind to be listed under`);
  if (problems.length > 0 || location === undefined || template === undefined) return { ok: false, problems };
  const order = Object.fromEntries(Object.entries(given).filter(([field]) => !(SANDBOX_SET_FIELDS as readonly string[]).includes(field))) as GivenOrder;
  return { ok: true, order, location, template };
}
