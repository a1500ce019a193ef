/** Pure: what the sandbox keeps of an order, its status flow (§3) and the POS's calls about it (a status, a Hub brand's location). */
import { describeValue as describe } from '../http/messages.js';
import type { Location, FixtureOrder } from '../fixtures/fixture-schemas.js';
import { finding, type Finding } from '../http/findings.js';
import type { SandboxOrder } from './sandbox-order-types.js';

/** The interface sets none (§8), but an id of a megabyte stored twice per refund made state files the start check refused. */
export const MAX_EXTERNAL_ID_LENGTH = 256;

export function externalIdTooLong(value: string): string {
  return `ExternalId is ${value.length} characters long; the sandbox accepts at most ${MAX_EXTERNAL_ID_LENGTH} (the ID the POS gave the order)`;
}

export const ORDER_STATUSES = ['NEW', 'DISPATCHED', 'AWAITING_STATUS', 'ACCEPTED', 'REJECTED', 'DELIVERY_FAILED', 'REFUNDED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What the POS may answer an order with (§3). */
export const POS_DECISIONS = ['ACCEPTED', 'REJECTED'] as const;
export type PosDecision = (typeof POS_DECISIONS)[number];

const MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  // DELIVERY_FAILED from NEW or DISPATCHED also when the sandbox stopped mid-way (recovered at start).
  NEW: ['DISPATCHED', 'DELIVERY_FAILED'],
  // The POS's reply: with a Status it decides at once, without one the order waits for POST /order/status.
  DISPATCHED: ['AWAITING_STATUS', 'ACCEPTED', 'REJECTED', 'DELIVERY_FAILED'],
  AWAITING_STATUS: ['ACCEPTED', 'REJECTED'],
  ACCEPTED: ['REFUNDED'],
  // §3: a rejected order can be resent by hand; so can one that never reached the POS.
  REJECTED: ['DISPATCHED'],
  DELIVERY_FAILED: ['DISPATCHED'],
  REFUNDED: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return MOVES[from].includes(to);
}

/** Why the POS cannot set this status now (POST /order/status), or undefined when it can. */
export function posStatusProblem(order: { OrderId: string; Status: OrderStatus }, to: PosDecision): string | undefined {
  if (order.Status === 'AWAITING_STATUS') return undefined;
  const why =
    order.Status === 'ACCEPTED' || order.Status === 'REJECTED'
      ? `it was already decided (${order.Status}); a status is sent once per delivery`
      : order.Status === 'DISPATCHED'
        ? 'the sandbox is still delivering it'
        : `it is ${order.Status}`;
  return `order ${order.OrderId} cannot become ${to}: ${why}. The status is accepted only while the order is AWAITING_STATUS, after a reply without Status`;
}

/** Why the order cannot be resent now, or undefined when it can (§3: REJECTED, and DELIVERY_FAILED). */
export function resendProblem(order: { OrderId: string; Status: OrderStatus }): string | undefined {
  if (canMove(order.Status, 'DISPATCHED') && order.Status !== 'NEW') return undefined;
  return `order ${order.OrderId} is ${order.Status}; only a REJECTED or DELIVERY_FAILED order can be resent`;
}

export interface OrderStatusRequest {
  ExternalId: string;
  Status: PosDecision;
  Reason?: string;
}

const ORDER_STATUS_FIELDS = ['ExternalId', 'Status', 'Reason'] as const;

export type OrderStatusBodyCheck =
  | { ok: true; request: OrderStatusRequest; unknownFields: string[] }
  | { ok: false; problems: string[] };

/** The body of POST /order/status, {ExternalId, Status, Reason?}; every problem listed. */
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

/** True when both ids are brand locations of one Hub: one POS serves both brands, and each order keeps its own. */
export function sameHubBrands(locations: readonly Location[], a: string, b: string): boolean {
  if (a === b) return false;
  const hubOf = (id: string) => locations.find((location) => location.id === id)?.hub?.id;
  const hub = hubOf(a);
  return hub !== undefined && hub === hubOf(b);
}

/** The finding for a call about a Hub order made with another brand's location. */
export function wrongBrandFinding(order: { OrderId: string; LocationId: string }, usedLocation: string, call: string): Finding {
  return finding(
    'WRONG_BRAND_LOCATION',
    `${call} for order ${order.OrderId} used location '${usedLocation}', but the order is for the Hub brand location '${order.LocationId}'; use the order's own LocationId in every call about it`,
  );
}

/** One HTTP attempt to deliver the order to the POS. */
export interface DeliveryAttempt {
  /** 1 for the first dispatch, 2 after the first resend, … */
  dispatch: number;
  attempt: number;
  at: string;
  requestId: string;
  journalId: string;
  httpStatus?: number;
  /** Why the attempt did not deliver the order (timeout, refused, non-2xx, no ExternalId …). */
  problem?: string;
  externalId?: string;
  /** A duplicate fault sends one try twice: 1 and 2 tell the copies apart. */
  copy?: number;
  /** The fault rule that acted on this try. */
  fault?: string;
}

export interface StatusChange {
  status: OrderStatus;
  at: string;
  /** What moved it: the sandbox's dispatch, the POS's reply, its POST /order/status, a resend, a refund. */
  by: 'dispatch' | 'pos-reply' | 'pos-status' | 'resend' | 'refund' | 'delivery';
  reason?: string;
  journalId?: string;
}

export interface OrderRecord extends Omit<FixtureOrder, 'Status'> {
  Status: OrderStatus;
  UpdatedAt?: string;
  /** Where it is delivered; kept so a resend goes to the same POS. */
  PosOrderUrl?: string;
  /** At most this many tries per dispatch, when fewer than the sandbox's own were asked for (POST /_sandbox/orders `tries`). */
  Tries?: number;
  /** The body last sent to the POS (absent for the fixture orders, which were never sent). */
  Order?: SandboxOrder;
  Deliveries?: DeliveryAttempt[];
  History?: StatusChange[];
  /** What the sandbox noticed about the POS's handling of this order (a changed ExternalId, another brand's location …). */
  Findings?: Finding[];
}
