import { describe, expect, it } from '@jest/globals';
import { decideRefund } from './refund-outcome.js';
import type { OrderRecord } from './order-record.js';

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
});
