/** The order model's JSON Schema (order-model/), which every order is checked against before it leaves, and the order components of the OpenAPI document. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options, ValidateFunction } from 'ajv';
import type { SandboxOrder } from './sandbox-order-types.js';
import { PACKAGE_ROOT } from '../version.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { ref, schemaComponents } from '../openapi/openapi-parts.js';
import { ORDER_STATUSES } from './order-rules.js';

export const ORDER_SCHEMA_FILE = join(PACKAGE_ROOT, 'order-model', 'sandbox-order.schema.json');

// format "date-time" is documentation here; ajv-formats is not worth a dependency for one field the sandbox writes itself.
/** How the order schema is compiled; `npm run build` compiles it with these too (scripts/build-validators.ts). */
export const ORDER_AJV_OPTIONS: Options = { allErrors: true, validateFormats: false };

let compiled: { schema: object; validate: ValidateFunction<SandboxOrder> } | undefined;

/** The schema, parsed once, and its validator (allErrors, so a broken template names every problem). */
export function orderSchema(): { schema: object; validate: ValidateFunction<SandboxOrder> } {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(ORDER_SCHEMA_FILE, 'utf8')) as object;
  compiled = { schema, validate: compileSchema<SandboxOrder>(() => newAjv(ORDER_AJV_OPTIONS), ORDER_AJV_OPTIONS, schema) };
  return compiled;
}

const ORDER_ID = { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' };
const POS_ORDER_URL = { type: 'string', format: 'uri', description: 'Default: --pos-order-url' };

/** The order model as components (SandboxOrder, SandboxOrder.<Name>), and the order resources of the control API. */
export function orderSchemas(model: object): Record<string, object> {
  return {
    ...schemaComponents('SandboxOrder', model),
    OrderStatusRequest: {
      type: 'object',
      required: ['ExternalId', 'Status'],
      properties: { ExternalId: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' }, Status: { enum: ['ACCEPTED', 'REJECTED'] }, Reason: { type: 'string' } },
    },
    NewOrder: { oneOf: [ref('NewOrderFromTemplate'), ref('NewOrderGiven')] },
    NewOrderGiven: {
      type: 'object',
      required: ['order'],
      additionalProperties: false,
      description: "An order given whole (what pos-sandbox stress sends and orders replay sends again), sent as it is with the sandbox's OrderId, RequestId and CreatedAt.",
      properties: {
        order: { type: 'object', description: 'An order of SandboxOrder, without OrderId, RequestId and CreatedAt; for a location of the fixtures, with Hub for a Hub brand and Kiosk for a kiosk' },
        orderId: { ...ORDER_ID, description: 'Default: generated' },
        posOrderUrl: POS_ORDER_URL,
        tries: { type: 'integer', minimum: 1, maximum: 10, description: "At most this many tries per dispatch (never more than the sandbox's own)" },
      },
    },
    NewOrderFromTemplate: {
      type: 'object',
      required: ['template'],
      additionalProperties: false,
      properties: {
        template: { type: 'string', description: 'standard, hub or kiosk (fixtures/order-templates)' },
        locationId: { type: 'string', description: "Default: the first location of the template's kind" },
        orderId: { ...ORDER_ID, description: 'Default: generated. Choose it to tell a driver the decision first.' },
        eatIn: { type: 'boolean', description: 'Kiosk only' },
        pagerNumber: { type: 'string', description: 'Kiosk only' },
        posOrderUrl: POS_ORDER_URL,
      },
    },
    OrderRecord: {
      type: 'object',
      required: ['OrderId', 'LocationId', 'Template', 'Status', 'CreatedAt'],
      properties: {
        OrderId: { type: 'string' },
        LocationId: { type: 'string' },
        Template: { type: 'string' },
        Status: { enum: [...ORDER_STATUSES] },
        ExternalId: { type: 'string', description: 'What the POS answered the order with' },
        Reason: { type: 'string' },
        CreatedAt: { type: 'string', format: 'date-time' },
        UpdatedAt: { type: 'string', format: 'date-time' },
        PosOrderUrl: { type: 'string' },
        Order: ref('SandboxOrder'),
        Deliveries: { type: 'array', items: { type: 'object' } },
        History: { type: 'array', items: { type: 'object' } },
        Findings: { type: 'array', items: { type: 'object' } },
      },
    },
  };
}
