import { describe, expect, it } from '@jest/globals';
import { matchFault, wildcardMatch, type FaultRequest } from './match-fault.js';
import type { FaultMatch } from './fault-rule-types.js';

const refund: FaultRequest = { direction: 'inbound', method: 'POST', path: '/v2/order/refund', locationId: 'loc-std-001', partner: 'demo-pos' };
const delivery: FaultRequest = { direction: 'outbound', method: 'POST', path: '/order', locationId: 'loc-hub-001-burgers', orderId: 'chk-1a2b3c-04' };

describe('matching a fault rule', () => {
  it.each<[string, FaultMatch | undefined, FaultRequest, boolean]>([
    ['no match at all fits any inbound call', undefined, refund, true],
    ['direction defaults to inbound', {}, delivery, false],
    ['an outbound rule fits a delivery', { direction: 'outbound' }, delivery, true],
    ['a path fits whatever the mount', { path: '/order/refund' }, refund, true],
    ['a rule written with a mount fits the others', { path: '/v1/pos/openapi/order/refund' }, refund, true],
    ['paths ignore case and a trailing slash', { path: '/Order/Refund/' }, refund, true],
    ['another path does not fit', { path: '/order/status' }, refund, false],
    ['* matches any characters', { path: '/order/*' }, refund, true],
    ['* does not widen the rest', { path: '/menu*' }, refund, false],
    ['method ignores case', { method: 'post' }, refund, true],
    ['another method does not fit', { method: 'PUT' }, refund, false],
    ['the location header', { locationId: 'loc-std-001' }, refund, true],
    ['another location', { locationId: 'loc-kiosk-001' }, refund, false],
    ['the partner (token iss)', { partner: 'demo-pos' }, refund, true],
    ['another partner', { partner: 'other-pos' }, refund, false],
    ["an outbound path is the POS URL's", { direction: 'outbound', path: '/order' }, delivery, true],
    ["an order's location", { direction: 'outbound', locationId: 'loc-hub-001-burgers' }, delivery, true],
    ['the OrderId of the order delivered', { direction: 'outbound', orderId: 'chk-1a2b3c-04' }, delivery, true],
    ["another order's OrderId: a retry of an order still in flight does not use the rule up", { direction: 'outbound', orderId: 'chk-1a2b3c-03' }, delivery, false],
  ])('%s', (_name, match, request, fits) => {
    expect(matchFault(match, request)).toBe(fits);
  });
});

describe('wildcardMatch', () => {
  it.each([
    ['/order/*', '/order/refund', true],
    ['/order/*', '/order/', true],
    ['*', '', true],
    ['/*/refund', '/order/refund', true],
    ['/*/refund', '/order/status', false],
    ['/a*b*c', '/axxbyyc', true],
    ['/a*b*c', '/axxbyyd', false],
    ['/order/refund', '/order/refund', true],
    ['/order/refund', '/order/refunds', false],
    ['**', 'anything', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(wildcardMatch(pattern, path)).toBe(expected);
  });

  it('answers a pattern that makes a backtracking regular expression explode (20 stars, a 4,000-character path) at once', () => {
    // With `.*` pieces in a RegExp this call took hours: it hung the process for every request the rule saw.
    expect(wildcardMatch(`/${'*a'.repeat(20)}*c`, `/${'a'.repeat(4000)}`)).toBe(false);
  });
});
