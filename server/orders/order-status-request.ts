/** Pure: the body of POST /order/status, {ExternalId, Status, Reason?}; every problem listed. */
import { describeValue as describe } from '../http/describe-value.js';
import { MAX_EXTERNAL_ID_LENGTH, externalIdTooLong } from '../refunds/refund-rules.js';
import { POS_DECISIONS, type PosDecision } from './order-states.js';

export interface OrderStatusRequest {
  ExternalId: string;
  Status: PosDecision;
  Reason?: string;
}

export const ORDER_STATUS_FIELDS = ['ExternalId', 'Status', 'Reason'] as const;

export type OrderStatusBodyCheck =
  | { ok: true; request: OrderStatusRequest; unknownFields: string[] }
  | { ok: false; problems: string[] };

export function checkOrderStatusBody(body: unknown): OrderStatusBodyCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [`body must be a JSON object such as {"ExternalId":"...","Status":"ACCEPTED"}, got ${describe(body)}`] };
  }
  const record = body as Record<string, unknown>;
  const problems: string[] = [];
  const { ExternalId: externalId, Status: status, Reason: reason } = record;
  if (externalId === undefined) problems.push('ExternalId is required: the ID the POS returned for the order');
  else if (typeof externalId !== 'string') problems.push(`ExternalId must be a string, got ${describe(externalId)}`);
  else if (externalId.trim() === '') problems.push('ExternalId must not be empty or blank');
  else if (externalId.length > MAX_EXTERNAL_ID_LENGTH) problems.push(externalIdTooLong(externalId));
  if (status === undefined) problems.push('Status is required: ACCEPTED or REJECTED (§3)');
  else if (!(POS_DECISIONS as readonly unknown[]).includes(status)) problems.push(`Status must be ACCEPTED or REJECTED (§3), got ${describe(status)}`);
  if (reason !== undefined && typeof reason !== 'string') problems.push(`Reason must be a string, got ${describe(reason)}`);
  if (problems.length > 0) return { ok: false, problems };
  const unknownFields = Object.keys(record).filter((field) => !(ORDER_STATUS_FIELDS as readonly string[]).includes(field));
  return {
    ok: true,
    request: { ExternalId: externalId as string, Status: status as PosDecision, ...(reason === undefined ? {} : { Reason: reason as string }) },
    unknownFields,
  };
}
