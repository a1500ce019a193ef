import { describe, expect, it } from '@jest/globals';
import { FaultRegistry, DuplicateFaultIdError } from './fault-registry.js';
import type { FaultRule } from './fault-rule-types.js';
import type { FaultRequest } from './match-fault.js';

const refund: FaultRequest = { direction: 'inbound', method: 'POST', path: '/v2/order/refund', locationId: 'loc-std-001', partner: 'demo-pos' };
const menu: FaultRequest = { direction: 'inbound', method: 'PUT', path: '/menu', locationId: 'loc-std-001', partner: 'demo-pos' };
const unavailable: FaultRule = { action: { kind: 'status', status: 503 } };

function registry(initial: FaultRule[] = [], random = () => 0.5): FaultRegistry {
  return new FaultRegistry({ initial, random, clock: () => Date.parse('2026-11-21T10:00:00Z') });
}

/** The rule each request got, or '-' when none fired. */
function firings(faults: FaultRegistry, requests: FaultRequest[]): string[] {
  return requests.map((request) => faults.pick(request).fired?.rule ?? '-');
}

describe('the fault rule registry', () => {
  it('fails twice, then lets requests through: a rule with times expires once used up', () => {
    const faults = registry();
    faults.add([{ ...unavailable, times: 2 }]);
    expect(firings(faults, [refund, refund, refund])).toEqual(['fault-1', 'fault-1', '-']);
    expect(faults.list()).toEqual([]);
  });

  it('answers every 10th matching request, and only those', () => {
    const faults = registry();
    faults.add([{ action: { kind: 'rate-limit', retryAfter: 5 }, every: 10 }]);
    const fired = firings(faults, Array.from({ length: 30 }, () => refund));
    expect(fired.flatMap((rule, index) => (rule === '-' ? [] : [index + 1]))).toEqual([10, 20, 30]);
    expect(faults.list()[0]).toMatchObject({ seen: 30, fired: 3, left: null });
  });

  it('lets the first `after` matching requests through, then fires', () => {
    const faults = registry();
    faults.add([{ ...unavailable, after: 2, times: 1 }]);
    expect(faults.list()[0]).toMatchObject({ skipping: 2, left: 1 });
    expect(firings(faults, [refund, refund, refund, refund])).toEqual(['-', '-', 'fault-1', '-']);
  });

  it('counts `every` from the end of `after`', () => {
    const faults = registry();
    faults.add([{ ...unavailable, after: 3, every: 2 }]);
    expect(firings(faults, Array.from({ length: 8 }, () => refund))).toEqual(['-', '-', '-', '-', 'fault-1', '-', 'fault-1', '-']);
  });

  it('fires a probability rule when the random source falls under it', () => {
    const draws = [0.1, 0.9, 0.29, 0.3];
    const faults = registry([], () => draws.shift()!);
    faults.add([{ ...unavailable, probability: 0.3 }]);
    expect(firings(faults, [refund, refund, refund, refund])).toEqual(['fault-1', '-', 'fault-1', '-']);
  });

  it('tries the newest rule first; a rule added later goes in front', () => {
    const faults = registry();
    faults.add([{ id: 'older', ...unavailable }]);
    faults.add([{ id: 'newer', action: { kind: 'drop' }, times: 1 }]);
    expect(firings(faults, [refund, refund])).toEqual(['newer', 'older']);
  });

  it('keeps a list in its own order: the first rule of a list is tried first', () => {
    const faults = registry();
    faults.add([{ id: 'first', ...unavailable, times: 1 }, { id: 'second', ...unavailable, times: 1 }]);
    expect(faults.list().map((rule) => rule.id)).toEqual(['first', 'second']);
    expect(firings(faults, [refund, refund, refund])).toEqual(['first', 'second', '-']);
  });

  it('does not show a request to older rules once a newer one fired, so their counts stay theirs', () => {
    const faults = registry();
    faults.add([{ id: 'older', ...unavailable, every: 2 }]);
    faults.add([{ id: 'newer', action: { kind: 'drop' }, times: 1 }]);
    expect(firings(faults, [refund, refund, refund])).toEqual(['newer', '-', 'older']);
  });

  it('passes over a rule that does not match, without counting', () => {
    const faults = registry();
    faults.add([{ match: { path: '/menu' }, ...unavailable }]);
    expect(faults.pick(refund)).toEqual({ counted: false });
    expect(faults.pick(menu).fired).toEqual({ rule: 'fault-1', kind: 'status', action: { kind: 'status', status: 503 }, source: 'api' });
    expect(faults.list()[0]).toMatchObject({ seen: 1, fired: 1 });
  });

  it('resets to the rules of the start with fresh counters, dropping those added since', () => {
    const faults = registry([{ id: 'outage', ...unavailable, times: 2 }]);
    faults.add([{ action: { kind: 'hang' } }]);
    faults.pick(refund);
    faults.reset();
    expect(faults.list()).toEqual([
      { id: 'outage', action: { kind: 'status', status: 503 }, times: 2, source: 'file', addedAt: '2026-11-21T10:00:00.000Z', seen: 0, fired: 0, left: 2, skipping: 0 },
    ]);
  });

  it('removes one rule by id, or all of them', () => {
    const faults = registry();
    faults.add([unavailable, { action: { kind: 'drop' } }]);
    expect(faults.remove('fault-1')?.id).toBe('fault-1');
    expect(faults.remove('fault-1')).toBeUndefined();
    expect(faults.clear()).toBe(1);
    expect(faults.size).toBe(0);
  });

  it('refuses an id already in force, and never generates one that is taken', () => {
    const faults = registry();
    faults.add([{ id: 'fault-2', ...unavailable }]);
    expect(() => faults.add([{ id: 'fault-2', ...unavailable }])).toThrow(DuplicateFaultIdError);
    expect(faults.add([unavailable, unavailable]).map((rule) => rule.id)).toEqual(['fault-1', 'fault-3']);
  });

  it('starts from stored rules and their counters instead of the initial ones, numbering after them', () => {
    const first = registry();
    first.add([{ ...unavailable, times: 3 }]);
    first.pick(refund);
    const again = new FaultRegistry({ initial: [], stored: first.snapshot(), random: () => 0.5, clock: () => 0 });
    expect(again.list()[0]).toMatchObject({ id: 'fault-1', fired: 1, left: 2 });
    expect(again.add([unavailable])[0]!.id).toBe('fault-2');
  });
});
