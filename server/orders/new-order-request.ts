/**
 * Pure: the body of POST /_sandbox/orders, {template, locationId?, orderId?, eatIn?, pagerNumber?, posOrderUrl?} or
 * {order, orderId?, posOrderUrl?, tries?} (an order given whole: given-order.ts); every problem listed.
 */
import type { Location, OrderTemplate } from '../fixtures/fixture-schemas.js';
import { describeValue as describe } from '../http/describe-value.js';
import type { OrderOptions } from './build-order.js';
import { checkGivenOrder, type GivenOrder, type OrderValidator } from './given-order.js';

export interface NewOrderRequest {
  template: OrderTemplate;
  location: Location;
  /** Chosen by the caller, so a driver can be told the decision before the order arrives. */
  orderId?: string;
  options: OrderOptions;
  posOrderUrl?: string;
  /** The order given whole, sent as it is (with the sandbox's OrderId, RequestId and CreatedAt). */
  given?: GivenOrder;
  /** At most this many tries per dispatch, fewer than the sandbox's own (a stress run's shrinking sends 1). */
  tries?: number;
}

const FIELDS = ['template', 'locationId', 'orderId', 'eatIn', 'pagerNumber', 'posOrderUrl', 'order'];
/** What goes with an order given whole: its location, kind and options are in the order. */
const GIVEN_FIELDS = ['order', 'orderId', 'posOrderUrl', 'tries'];
/** A given order's `tries`: never more than the sandbox's own count, which is at most this. */
export const MAX_TRIES = 10;
const ORDER_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function checkNewOrderBody(
  body: unknown,
  fixtures: { locations: readonly Location[]; templates: Record<string, OrderTemplate> },
  validate?: OrderValidator,
): { ok: true; request: NewOrderRequest } | { ok: false; problems: string[] } {
  const names = Object.keys(fixtures.templates).sort();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [`body must be a JSON object such as {"template":"standard"}, got ${describe(body)}`] };
  }
  const input = body as Record<string, unknown>;
  if (input.order !== undefined && validate !== undefined) return checkGivenOrderBody(input, fixtures, validate);
  const problems = Object.keys(input)
    .filter((field) => !FIELDS.includes(field))
    .map((field) => `unknown field '${field}'; the fields are ${FIELDS.join(', ')}`);
  // Own properties only: 'constructor' or '__proto__' names no template.
  const template = typeof input.template === 'string' && Object.hasOwn(fixtures.templates, input.template) ? fixtures.templates[input.template] : undefined;
  if (!template) problems.push(`template must be one of ${names.join(', ')}, got ${describe(input.template)}`);

  const ofKind = fixtures.locations.filter((location) => location.kind === template?.LocationKind);
  let location: Location | undefined = ofKind[0];
  if (input.locationId !== undefined) {
    location = fixtures.locations.find((candidate) => candidate.id === input.locationId);
    if (!location) problems.push(`locationId ${describe(input.locationId)} is not a location; GET /_sandbox/locations lists them`);
    else if (template && location.kind !== template.LocationKind) {
      problems.push(`template '${template.Template}' is for ${template.LocationKind} locations and '${location.id}' is ${location.kind}; use ${ofKind.map((l) => l.id).join(' or ')}`);
    }
  } else if (template && !location) problems.push(`no ${template.LocationKind} location in the fixtures for template '${template.Template}'`);

  if (input.orderId !== undefined && (typeof input.orderId !== 'string' || !ORDER_ID.test(input.orderId))) {
    problems.push(`orderId must be 1 to 64 of A-Z a-z 0-9 . _ : -, got ${describe(input.orderId)}`);
  }
  const kioskOnly = ['eatIn', 'pagerNumber'].filter((field) => input[field] !== undefined);
  if (template && !template.Kiosk && kioskOnly.length > 0) problems.push(`${kioskOnly.join(' and ')} apply to kiosk orders only`);
  if (input.eatIn !== undefined && typeof input.eatIn !== 'boolean') problems.push(`eatIn must be true or false, got ${describe(input.eatIn)}`);
  if (input.pagerNumber !== undefined && (typeof input.pagerNumber !== 'string' || input.pagerNumber.trim() === '')) {
    problems.push(`pagerNumber must be a non-empty string, got ${describe(input.pagerNumber)}`);
  }
  if (input.posOrderUrl !== undefined && !isHttpUrl(input.posOrderUrl)) {
    problems.push(`posOrderUrl must be an absolute http(s) URL, got ${describe(input.posOrderUrl)}`);
  }
  if (problems.length > 0 || !template || !location) return { ok: false, problems };
  return {
    ok: true,
    request: {
      template,
      location,
      ...(input.orderId === undefined ? {} : { orderId: input.orderId as string }),
      options: {
        ...(input.eatIn === undefined ? {} : { eatIn: input.eatIn as boolean }),
        ...(input.pagerNumber === undefined ? {} : { pagerNumber: input.pagerNumber as string }),
      },
      ...(input.posOrderUrl === undefined ? {} : { posOrderUrl: input.posOrderUrl as string }),
    },
  };
}

function checkGivenOrderBody(
  input: Record<string, unknown>,
  fixtures: { locations: readonly Location[]; templates: Record<string, OrderTemplate> },
  validate: OrderValidator,
): { ok: true; request: NewOrderRequest } | { ok: false; problems: string[] } {
  const problems = Object.keys(input)
    .filter((field) => !GIVEN_FIELDS.includes(field))
    .map((field) => (FIELDS.includes(field) ? `${field} does not go with order: an order given whole names its location, and its kind and options, itself` : `unknown field '${field}'; with order, the fields are ${GIVEN_FIELDS.join(', ')}`));
  if (input.orderId !== undefined && (typeof input.orderId !== 'string' || !ORDER_ID.test(input.orderId))) problems.push(`orderId must be 1 to 64 of A-Z a-z 0-9 . _ : -, got ${describe(input.orderId)}`);
  if (input.posOrderUrl !== undefined && !isHttpUrl(input.posOrderUrl)) problems.push(`posOrderUrl must be an absolute http(s) URL, got ${describe(input.posOrderUrl)}`);
  if (input.tries !== undefined && !(Number.isInteger(input.tries) && (input.tries as number) >= 1 && (input.tries as number) <= MAX_TRIES)) {
    problems.push(`tries must be a whole number from 1 to ${MAX_TRIES} (more than the sandbox's own tries makes no more), got ${describe(input.tries)}`);
  }
  const given = checkGivenOrder(input.order, fixtures, validate);
  if (!given.ok) problems.push(...given.problems);
  if (problems.length > 0 || !given.ok) return { ok: false, problems };
  return {
    ok: true,
    request: {
      template: given.template,
      location: given.location,
      ...(input.orderId === undefined ? {} : { orderId: input.orderId as string }),
      options: {},
      ...(input.posOrderUrl === undefined ? {} : { posOrderUrl: input.posOrderUrl as string }),
      given: given.order,
      ...(input.tries === undefined ? {} : { tries: input.tries as number }),
    },
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
