import { describe, expect, it } from '@jest/globals';
import { canMove, ORDER_STATUSES, posStatusProblem, resendProblem, type OrderStatus } from './order-rules.js';

describe('order states', () => {
  it.each([
    ['NEW', 'DISPATCHED', true],
    ['DISPATCHED', 'AWAITING_STATUS', true],
    ['DISPATCHED', 'ACCEPTED', true],
    ['AWAITING_STATUS', 'REJECTED', true],
    ['REJECTED', 'DISPATCHED', true],
    ['DELIVERY_FAILED', 'DISPATCHED', true],
    ['ACCEPTED', 'REFUNDED', true],
    ['REJECTED', 'ACCEPTED', false],
    ['ACCEPTED', 'REJECTED', false],
    ['REFUNDED', 'DISPATCHED', false],
    ['AWAITING_STATUS', 'REFUNDED', false],
  ] as Array<[OrderStatus, OrderStatus, boolean]>)('%s → %s is %s', (from, to, legal) => {
    expect(canMove(from, to)).toBe(legal);
  });

  it('lets the POS decide only an order AWAITING_STATUS, and says why not otherwise', () => {
    const allowed = ORDER_STATUSES.filter((status) => posStatusProblem({ OrderId: 'o', Status: status }, 'ACCEPTED') === undefined);
    expect(allowed).toEqual(['AWAITING_STATUS']);
    expect(posStatusProblem({ OrderId: 'o', Status: 'DISPATCHED' }, 'ACCEPTED')).toContain('the sandbox is still delivering it');
    expect(posStatusProblem({ OrderId: 'o', Status: 'REFUNDED' }, 'REJECTED')).toContain('cannot become REJECTED: it is REFUNDED.');
  });

  it('resends only REJECTED and DELIVERY_FAILED orders', () => {
    expect(ORDER_STATUSES.filter((status) => resendProblem({ OrderId: 'o', Status: status }) === undefined)).toEqual(['REJECTED', 'DELIVERY_FAILED']);
  });
});
