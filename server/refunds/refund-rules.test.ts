import { describe, expect, it } from '@jest/globals';
import { decidedRecord, decideRefund, type RefundRecord } from './refund-rules.js';
import type { OrderRecord } from '../orders/order-rules.js';

const order = (OrderId: string, LocationId: string, ExternalId: string, Status: OrderRecord['Status']): OrderRecord => ({
  OrderId,
  LocationId,
  ExternalId,
  Status,
  Template: 'standard',
  CreatedAt: '2026-11-01T00:00:00Z',
});
const locations = new Set(['loc-a', 'loc-b']);
const orders = [order('o1', 'loc-a', 'EXT-1', 'ACCEPTED'), order('o2', 'loc-a', 'EXT-2', 'REJECTED'), order('o3', 'loc-b', 'EXT-3', 'REFUNDED')];

describe('decideRefund', () => {
  it.each([
    ['an accepted order', 'loc-a', 'EXT-1', { status: 'PROCESSED', detail: 'order o1 refunded', orderId: 'o1' }],
    ['an unknown location', 'loc-x', 'EXT-1', { status: 'FAILED', reason: 'UNKNOWN_LOCATION', detail: "location 'loc-x' is not a location of this partner" }],
    ['an unknown ExternalId', 'loc-a', 'EXT-9', { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail: "no order with ExternalId 'EXT-9' at location 'loc-a'" }],
    [
      "another location's order",
      'loc-b',
      'EXT-1',
      { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail: "ExternalId 'EXT-1' is order o1 of location 'loc-a', not of 'loc-b'" },
    ],
    ['a rejected order', 'loc-a', 'EXT-2', { status: 'FAILED', reason: 'ORDER_NOT_ACCEPTED', detail: 'order o2 is REJECTED, not ACCEPTED' }],
    ['a refunded order', 'loc-b', 'EXT-3', { status: 'FAILED', reason: 'ALREADY_REFUNDED', detail: 'order o3 was already refunded' }],
  ])('decides %s', (_case, locationId, externalId, decision) => {
    expect(decideRefund({ locationId, externalId }, locations, orders)).toEqual(decision);
  });

  it('refunds the one order that can be, of several of the location given one ExternalId (a POS restarted), whatever their order', () => {
    const earlier = order('old', 'loc-a', 'REF-1', 'REFUNDED');
    const now = order('new', 'loc-a', 'REF-1', 'ACCEPTED');
    for (const both of [[earlier, now], [now, earlier]]) {
      expect(decideRefund({ locationId: 'loc-a', externalId: 'REF-1' }, locations, both)).toEqual({ status: 'PROCESSED', detail: 'order new refunded', orderId: 'new' });
    }
    expect(decideRefund({ locationId: 'loc-a', externalId: 'REF-1' }, locations, [earlier, order('new', 'loc-a', 'REF-1', 'REFUNDED')])).toEqual({ status: 'FAILED', reason: 'ALREADY_REFUNDED', detail: 'order old was already refunded' });
  });
});

describe('decidedRecord', () => {
  const pending: RefundRecord = {
    id: 'rf-1',
    externalId: 'EXT-1',
    locationId: 'loc-a',
    partner: 'demo-pos',
    requestId: 'req-1',
    journalId: 'j-000001',
    status: 'PENDING',
    acceptedAt: '2026-11-01T00:00:00.000Z',
    dueAt: '2026-11-01T00:00:01.000Z',
  };

  // What is stored and served is JSON: the same text, in the same order, as the spread it replaces.
  it.each([
    ['processed', { status: 'PROCESSED', detail: 'order o1 refunded', orderId: 'o1' }],
    ['failed', { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail: "no order with ExternalId 'EXT-1' at location 'loc-a'" }],
  ] as const)('writes a %s refund as the pending one plus its decision', (_case, decision) => {
    const done = decidedRecord(pending, decision, '2026-11-01T00:00:01.000Z');
    expect(JSON.stringify(done)).toBe(JSON.stringify({ ...pending, ...decision, processedAt: '2026-11-01T00:00:01.000Z' }));
  });

  it('leaves the pending record as it was', () => {
    const before = structuredClone(pending);
    decidedRecord(pending, { status: 'PROCESSED', detail: 'order o1 refunded', orderId: 'o1' }, '2026-11-01T00:00:01.000Z');
    expect(pending).toEqual(before);
  });
});
