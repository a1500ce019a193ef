import { describe, expect, it } from '@jest/globals';
import type { OrderRecord } from '../orders/order-rules.js';
import { judgeDelivery, signatureOf, type DeliveredOrder } from './delivery-verdict.js';

function refused(orderId: string, status: number, answer: unknown): DeliveredOrder {
  const record = {
    OrderId: orderId,
    LocationId: 'loc-std-001',
    Template: 'standard',
    Status: 'DELIVERY_FAILED',
    CreatedAt: '2026-11-27T12:00:00.000Z',
    Deliveries: [{ dispatch: 1, attempt: 1, at: '2026-11-27T12:00:00.000Z', requestId: 'req-1', journalId: `j-${orderId}`, httpStatus: status, problem: `the POS answered ${status}` }],
  } as OrderRecord;
  return { record, decidedMs: 12, duplicate: false, answers: { [`j-${orderId}`]: answer } };
}

describe('a failure told from another of its kind', () => {
  it('quotes what the POS said, and keeps it out of the signature where it holds an order of its own', () => {
    const first = judgeDelivery(refused('ord-a1', 500, { code: 'INTERNAL_ERROR', message: 'modifier table overflow at row 12 of order ord-a1' }), new Map());
    const second = judgeDelivery(refused('ord-b7', 500, { code: 'INTERNAL_ERROR', message: 'modifier table overflow at row 3 of order ord-b7' }), new Map());
    expect(first).toEqual({
      ok: false,
      kind: '5xx',
      signature: '5xx 500 {"code":"internal_error","message":"modifier table overflow at row # of order #"}',
      message: 'the POS answered 500 to try 1 (j-ord-a1): the POS answered 500; it said {"code":"INTERNAL_ERROR","message":"modifier table overflow at row 12 of order ord-a1"}',
    });
    expect(second.ok ? '' : second.signature).toBe(first.ok ? 'x' : first.signature);
  });

  it('tells two bugs that both answer 500 apart, and a 500 from a 503', () => {
    const signature = (status: number, answer: unknown) => {
      const verdict = judgeDelivery(refused('ord-1', status, answer), new Map());
      return verdict.ok ? '' : verdict.signature;
    };
    const overflow = signature(500, { message: 'modifier table overflow' });
    expect(new Set([overflow, signature(500, { message: 'cannot encode an item name' }), signature(503, { message: 'modifier table overflow' }), signature(500, undefined), signature(500, 'Internal Server Error')]).size).toBe(5);
  });

  it('quotes a long answer short, and an answer of no body not at all', () => {
    const long = judgeDelivery(refused('ord-1', 500, 'x'.repeat(5000)), new Map());
    expect(long.ok ? 0 : long.message.length).toBeLessThan(300);
    expect(judgeDelivery(refused('ord-1', 502, ''), new Map())).toEqual({ ok: false, kind: '5xx', signature: '5xx 502', message: 'the POS answered 502 to try 1 (j-ord-1): the POS answered 502' });
  });

  it('leaves out every word that holds a digit: ids, times and amounts differ between orders of one bug', () => {
    expect(signatureOf('Order ORD-9f3 failed at 2026-11-27T12:00:01Z: total 12.50 EUR')).toBe('order # failed at #: total # eur');
  });
});
