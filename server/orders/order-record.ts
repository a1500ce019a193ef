/** What the sandbox keeps of an order: the fixture fields, the order it sent, every delivery attempt and every status change. */
import type { FixtureOrder } from '../fixtures/fixture-schemas.js';
import type { Finding } from '../http/findings.js';
import type { OrderStatus } from './order-states.js';
import type { SandboxOrder } from './sandbox-order-types.js';

/** One HTTP attempt to deliver the order to the POS. */
export interface DeliveryAttempt {
  /** 1 for the first dispatch, 2 after the first resend, … */
  dispatch: number;
  /** 1 to 3 within a dispatch. */
  attempt: number;
  at: string;
  requestId: string;
  journalId: string;
  /** The POS's HTTP status, when it answered at all. */
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
