/**
 * The order status flow (§3): NEW → DISPATCHED → AWAITING_STATUS → ACCEPTED | REJECTED,
 * DELIVERY_FAILED, REFUNDED. Pure: which moves are legal, and how an illegal one is worded.
 */
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
