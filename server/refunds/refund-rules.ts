/** Pure refund rules: the body check of §4.1 rule 1, and the decision of rule 2 when the refund is processed. */
import { describeValue as describe } from '../http/messages.js';
import { externalIdTooLong, MAX_EXTERNAL_ID_LENGTH, type OrderRecord } from '../orders/order-rules.js';

export interface RefundRequest {
  ExternalId: string;
}

/** The fields §2.1 defines; anything else is a finding, not a rejection. */
export const REFUND_FIELDS = ['ExternalId'] as const;

export type RefundBodyCheck =
  | { ok: true; request: RefundRequest; unknownFields: string[] }
  | { ok: false; problems: string[] };

/** Validates a parsed refund body; every problem is listed. */
export function checkRefundBody(body: unknown): RefundBodyCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [`body must be a JSON object such as {"ExternalId":"..."}, got ${describe(body)}`] };
  }
  const record = body as Record<string, unknown>;
  const externalId = record.ExternalId;
  const unknownFields = Object.keys(record).filter((field) => !(REFUND_FIELDS as readonly string[]).includes(field));
  const problem = externalIdProblem(externalId, unknownFields);
  if (problem) return { ok: false, problems: [problem] };
  return { ok: true, request: { ExternalId: externalId as string }, unknownFields };
}

function externalIdProblem(value: unknown, unknownFields: string[]): string | undefined {
  if (value === undefined) {
    const nearMiss = unknownFields.find((field) => field.toLowerCase().replace(/[-_]/g, '') === 'externalid');
    const hint = nearMiss ? ` (found '${nearMiss}'; field names are case-sensitive)` : '';
    return `ExternalId is required: the ID the POS returned for the order (§2.1)${hint}`;
  }
  if (typeof value !== 'string') return `ExternalId must be a string, got ${describe(value)}`;
  if (value === '') return 'ExternalId must not be empty';
  if (value.trim() === '') return 'ExternalId must not be blank (it is only white space)';
  if (value.length > MAX_EXTERNAL_ID_LENGTH) return externalIdTooLong(value);
  return undefined;
}

/** What happens to an accepted refund when it is processed (§4.1 rule 2): pure, given the state it sees. */

/** What a refund can be: PENDING until it is decided, then PROCESSED or FAILED. */
export const REFUND_STATUSES = ['PENDING', 'PROCESSED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export type RefundFailure = 'UNKNOWN_LOCATION' | 'ORDER_NOT_FOUND' | 'ORDER_NOT_ACCEPTED' | 'ALREADY_REFUNDED';

/** The sandbox's record of one accepted refund request. */
export interface RefundRecord {
  id: string;
  externalId: string;
  locationId: string;
  partner: string;
  status: RefundStatus;
  reason?: RefundFailure;
  /** Why, in a sentence, when FAILED; the order refunded, when PROCESSED. */
  detail?: string;
  orderId?: string;
  requestId: string;
  journalId: string;
  acceptedAt: string;
  dueAt: string;
  processedAt?: string;
}

/** What the indexes read of a refund: all that its log line shows before it is parsed. */
export type RefundView = Pick<RefundRecord, 'id' | 'externalId' | 'locationId' | 'status' | 'acceptedAt'>;

export interface RefundDecision {
  status: 'PROCESSED' | 'FAILED';
  reason?: RefundFailure;
  detail: string;
  /** The order to mark REFUNDED, when PROCESSED. */
  orderId?: string;
}

/** Decides a refund from the locations and the orders that carry its ExternalId, as they are when it is processed. */
export function decideRefund(
  refund: Pick<RefundRecord, 'externalId' | 'locationId'>,
  locationIds: ReadonlySet<string>,
  ordersWithExternalId: readonly OrderRecord[],
): RefundDecision {
  const orders = ordersWithExternalId;
  const { externalId, locationId } = refund;
  if (!locationIds.has(locationId)) {
    return { status: 'FAILED', reason: 'UNKNOWN_LOCATION', detail: `location '${locationId}' is not a location of this partner` };
  }
  // One ExternalId on several orders (a POS restarted its numbering): the refund is of the one refundable, else of the first.
  const here = orders.filter((o) => o.ExternalId === externalId && o.LocationId === locationId);
  const refundable = here.filter((o) => o.Status === 'ACCEPTED');
  const order = refundable.length === 1 ? refundable[0] : here[0];
  if (!order) {
    const elsewhere = orders.find((o) => o.ExternalId === externalId);
    const detail = elsewhere
      ? `ExternalId '${externalId}' is order ${elsewhere.OrderId} of location '${elsewhere.LocationId}', not of '${locationId}'`
      : `no order with ExternalId '${externalId}' at location '${locationId}'`;
    return { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail };
  }
  if (order.Status === 'REFUNDED') {
    return { status: 'FAILED', reason: 'ALREADY_REFUNDED', detail: `order ${order.OrderId} was already refunded` };
  }
  if (order.Status !== 'ACCEPTED') {
    return { status: 'FAILED', reason: 'ORDER_NOT_ACCEPTED', detail: `order ${order.OrderId} is ${order.Status}, not ACCEPTED` };
  }
  return { status: 'PROCESSED', detail: `order ${order.OrderId} refunded`, orderId: order.OrderId };
}

/** Written field by field, not with a spread, so every kept refund shares one hidden class (docs/performance.md). */
export function decidedRecord(refund: RefundRecord, decision: RefundDecision, processedAt: string): RefundRecord {
  return {
    id: refund.id,
    externalId: refund.externalId,
    locationId: refund.locationId,
    partner: refund.partner,
    requestId: refund.requestId,
    journalId: refund.journalId,
    status: decision.status,
    acceptedAt: refund.acceptedAt,
    dueAt: refund.dueAt,
    reason: decision.reason,
    detail: decision.detail,
    orderId: decision.orderId,
    processedAt,
  };
}
