/** Pure: a new order's body, from a template or given whole, and the order built from a template; every problem listed. */
import type { Location, OrderTemplate } from '../fixtures/fixture-schemas.js';
import { describeValue as describe, schemaMessages } from '../http/messages.js';
import type { ErrorObject } from 'ajv';
import type { SandboxOrder, OrderItem, Tax } from './sandbox-order-types.js';

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

/** An order given whole (stress, orders replay) is checked against the order model less what the sandbox sets, and sent as given. */

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

/** Pure: a fixture template + a location → the order the sandbox sends to the POS, totals worked out, money in minor units. */

export type TemplateName = OrderTemplate['Template'];
type TemplateLine = OrderTemplate['Items'][number];

export interface OrderOptions {
  /** Kiosk only: false makes a takeout kiosk order. Default: the template's. */
  eatIn?: boolean;
  /** Kiosk only. Default: the template's. */
  pagerNumber?: string;
}

export interface BuildOrderInput {
  template: OrderTemplate;
  location: Location;
  orderId: string;
  requestId: string;
  createdAt: string;
  options?: OrderOptions;
}

/** One line's amount: each unit carries its variations and its modifiers. */
export function lineAmount(line: Pick<OrderItem, 'Quantity' | 'UnitPrice' | 'Variations' | 'Modifiers'>): number {
  const variations = line.Variations.reduce((sum, variation) => sum + variation.Price, 0);
  const modifiers = line.Modifiers.reduce((sum, modifier) => sum + modifier.Quantity * modifier.Price, 0);
  return line.Quantity * (line.UnitPrice + variations + modifiers);
}

/** Items + fees − promotions + taxes not already in the prices; the included taxes are worked out of that total. */
export function orderTotals(
  items: OrderItem[],
  template: Pick<OrderTemplate, 'Fees' | 'Promotions' | 'Taxes'>,
): { total: number; taxes: Tax[] } {
  const gross =
    items.reduce((sum, item) => sum + lineAmount(item), 0) +
    template.Fees.reduce((sum, fee) => sum + fee.Amount, 0) -
    template.Promotions.reduce((sum, promotion) => sum + promotion.Amount, 0);
  const base = Math.max(0, gross);
  const taxes = template.Taxes.map((tax) => {
    const rate = tax.Rate ?? 0;
    const amount = tax.Included ? Math.round((base * rate) / (100 + rate)) : Math.round((base * rate) / 100);
    return { Name: tax.Name, Rate: rate, Amount: amount, Included: tax.Included };
  });
  const added = taxes.filter((tax) => !tax.Included).reduce((sum, tax) => sum + tax.Amount, 0);
  return { total: base + added, taxes };
}

/** The template's lines for this location: a Hub brand gets its own items (BrandItems), everyone else the template's Items. */
export function templateLines(template: OrderTemplate, locationId: string): TemplateLine[] {
  const brandItems = template.BrandItems;
  return (brandItems && Object.hasOwn(brandItems, locationId) ? brandItems[locationId] : undefined) ?? template.Items;
}

export function buildOrder({ template, location, orderId, requestId, createdAt, options = {} }: BuildOrderInput): SandboxOrder {
  const items = templateLines(template, location.id).map(
    (line): OrderItem => ({
      Id: line.Id,
      Name: line.Name,
      Quantity: line.Quantity,
      UnitPrice: line.UnitPrice,
      Variations: (line.Variations ?? []).map((variation) => ({ ...variation })),
      Modifiers: (line.Modifiers ?? []).map((modifier) => ({ ...modifier })),
    }),
  );
  const { total, taxes } = orderTotals(items, template);
  const kiosk = template.Kiosk
    ? { ...template.Kiosk, EatIn: options.eatIn ?? template.Kiosk.EatIn, PagerNumber: options.pagerNumber ?? template.Kiosk.PagerNumber }
    : undefined;
  return {
    OrderId: orderId,
    RequestId: requestId,
    LocationId: location.id,
    Channel: template.Channel as SandboxOrder['Channel'],
    // A kiosk order taken away is Takeout whatever the template says.
    ServiceType: kiosk ? (kiosk.EatIn ? 'EatIn' : 'Takeout') : template.ServiceType,
    CreatedAt: createdAt,
    Currency: location.currency ?? template.Currency,
    ...(template.Customer ? { Customer: { ...template.Customer } } : {}),
    Items: items as SandboxOrder['Items'],
    Fees: template.Fees.map((fee) => ({ Type: fee.Type, Name: fee.Name ?? fee.Type, Amount: fee.Amount })),
    Promotions: template.Promotions.map((promotion) => ({ Id: promotion.Id, Name: promotion.Name ?? promotion.Id, Amount: promotion.Amount })),
    Taxes: taxes,
    Payment: { Prepaid: template.Payment.Prepaid, Method: template.Payment.Method ?? (template.Payment.Prepaid ? 'Online' : 'Cash'), Amount: total },
    Total: total,
    ...(location.hub ? { Hub: { HubId: location.hub.id, HubName: location.hub.name, Brand: location.hub.brand } } : {}),
    ...(kiosk ? { Kiosk: kiosk } : {}),
  };
}
