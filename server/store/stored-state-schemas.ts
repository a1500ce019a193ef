/** JSON Schemas of what the sandbox stores; the check at start holds every file to them, and a field the code writes but a schema lacks fails the type check. */
import type { FromSchema } from 'json-schema-to-ts';
import { menuSchema } from '../fixtures/fixture-schemas.js';
import { ORDER_STATUSES } from '../orders/order-rules.js';
import type { RefundRecord } from '../refunds/refund-rules.js';
import type { DeliveryAttempt, OrderRecord, StatusChange } from '../orders/order-rules.js';
import type { Finding } from '../http/findings.js';

const text = { type: 'string' } as const;
const key = { type: 'string', minLength: 1 } as const;
/** What `Date.prototype.toISOString` writes, the only way the sandbox writes a time. */
const time = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' } as const;
const count = { type: 'integer', minimum: 0 } as const;

export const refundRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'externalId', 'locationId', 'partner', 'status', 'requestId', 'journalId', 'acceptedAt', 'dueAt'],
  properties: {
    id: key,
    externalId: key,
    locationId: key,
    partner: text,
    status: { enum: ['PENDING', 'PROCESSED', 'FAILED'] },
    reason: { enum: ['UNKNOWN_LOCATION', 'ORDER_NOT_FOUND', 'ORDER_NOT_ACCEPTED', 'ALREADY_REFUNDED'] },
    detail: text,
    orderId: key,
    requestId: text,
    journalId: text,
    acceptedAt: time,
    // The processor's timer is set from dueAt: a time it cannot read would settle the refund at once.
    dueAt: time,
    processedAt: time,
  },
} as const;

const deliveryAttemptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['dispatch', 'attempt', 'at', 'requestId', 'journalId'],
  properties: {
    dispatch: { type: 'integer', minimum: 1 },
    attempt: { type: 'integer', minimum: 1 },
    at: time,
    requestId: text,
    journalId: text,
    httpStatus: { type: 'integer' },
    problem: text,
    externalId: text,
    copy: { type: 'integer', minimum: 1 },
    fault: text,
  },
} as const;

const statusChangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'at', 'by'],
  properties: {
    status: { enum: ORDER_STATUSES },
    at: time,
    by: { enum: ['dispatch', 'pos-reply', 'pos-status', 'resend', 'refund', 'delivery'] },
    reason: text,
    journalId: text,
  },
} as const;

// Finding codes come and go between versions; a stored one is only shown, so any code is kept.
const findingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message', 'section'],
  properties: { code: key, message: text, section: text },
} as const;

export const orderRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['OrderId', 'LocationId', 'Template', 'Status', 'CreatedAt'],
  properties: {
    OrderId: key,
    LocationId: key,
    Template: { enum: ['standard', 'hub', 'kiosk'] },
    ExternalId: text,
    Status: { enum: ORDER_STATUSES },
    Reason: text,
    CreatedAt: time,
    UpdatedAt: time,
    PosOrderUrl: text,
    Tries: { type: 'integer', minimum: 1, maximum: 100 },
    // The body as it was sent, checked against order-model/ then; it is only shown and resent.
    Order: { type: 'object' },
    Deliveries: { type: 'array', items: deliveryAttemptSchema },
    History: { type: 'array', items: statusChangeSchema },
    Findings: { type: 'array', items: findingSchema },
  },
} as const;

/** A fault rule in force with its counters; the rule itself is then checked as POST /_sandbox/faults checks one. */
export const storedFaultRuleSchema = {
  type: 'object',
  required: ['id', 'source', 'addedAt', 'seen', 'fired'],
  properties: { id: key, source: { enum: ['api', 'file'] }, addedAt: time, seen: count, fired: count },
} as const;

/** The fields of a stored fault rule that are not part of the rule. */
export const FAULT_COUNTER_FIELDS = ['source', 'addedAt', 'seen', 'fired'] as const;

export const stateDocumentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'seededAt', 'menus'],
  properties: {
    schemaVersion: { const: 1 },
    seededAt: time,
    menus: { type: 'object', additionalProperties: menuSchema },
    // Absent in files written before fault rules were stored.
    faults: { type: 'array', items: storedFaultRuleSchema },
    // Whose state it is; absent in files written before it was stored.
    partner: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/** What the code writes fits the schema, with the same fields (an optional field the schema lacks would still be assignable). */
type Fits<Written, Checked> = [Written] extends [Checked] ? ([keyof Written] extends [keyof Checked] ? true : false) : false;
/** Both ways: and what the schema lets in is what the code reads. */
type Agree<Written, Checked> = Fits<Written, Checked> extends true ? Fits<Checked, Written> : false;
type StoredOrder = FromSchema<typeof orderRecordSchema>;
type Item<List> = NonNullable<List> extends ReadonlyArray<infer T> ? T : never;

/** Compile-time only: `npm run typecheck` fails when a record type and its schema drift apart. */
/** How the stored files' schemas are compiled, at start or by `npm run build` (server/fixtures/compiled-schemas.ts). */
export const STORED_AJV_OPTIONS = { allErrors: true, verbose: true };
/** A segment file: a list of records. */
export const orderSegmentSchema = { type: 'array', items: orderRecordSchema };
export const refundSegmentSchema = { type: 'array', items: refundRecordSchema };

export const STORED_TYPES_AGREE: [
  Agree<RefundRecord, FromSchema<typeof refundRecordSchema>>,
  Agree<Omit<OrderRecord, 'Order' | 'Findings'>, Omit<StoredOrder, 'Order' | 'Findings'>>,
  Agree<DeliveryAttempt, Item<StoredOrder['Deliveries']>>,
  Agree<StatusChange, Item<StoredOrder['History']>>,
  Fits<Finding, Item<StoredOrder['Findings']>>,
  Fits<keyof OrderRecord, keyof StoredOrder>,
] = [true, true, true, true, true, true];
