import { describe, expect, it } from '@jest/globals';
import { ownerOf } from './rendezvous.js';

const PARTNERS = [...Array(300)].map((_, i) => `partner-${String(i).padStart(3, '0')}`);
const count = (owners: Array<string | undefined>) => owners.reduce<Record<string, number>>((all, id) => ({ ...all, [id!]: (all[id!] ?? 0) + 1 }), {});

describe('ownerOf (rendezvous hashing)', () => {
  it('spreads 300 partners over 3 instances, each between 75 and 125', () => {
    for (const instances of [['host-a-101', 'host-b-102', 'host-c-103'], ['sandbox-1', 'sandbox-2', 'sandbox-3'], ['x', 'y', 'z']]) {
      const shares = Object.values(count(PARTNERS.map((partner) => ownerOf(partner, instances))));
      expect({ instances, shares: shares.length, fair: shares.every((n) => n >= 75 && n <= 125) }).toEqual({ instances, shares: 3, fair: true });
    }
  });

  it('gives a fourth instance about a quarter, every one taken from the instance that had it, none moved between the others', () => {
    const three = ['host-a-101', 'host-b-102', 'host-c-103'];
    const before = PARTNERS.map((partner) => ownerOf(partner, three));
    const after = PARTNERS.map((partner) => ownerOf(partner, [...three, 'host-d-104']));
    const moved = PARTNERS.filter((_, i) => before[i] !== after[i]);
    expect(moved.every((partner) => after[PARTNERS.indexOf(partner)] === 'host-d-104')).toBe(true);
    expect(moved.length).toBeGreaterThanOrEqual(50);
    expect(moved.length).toBeLessThanOrEqual(100);
  });

  it('moves only the partners of an instance that leaves', () => {
    const three = ['host-a-101', 'host-b-102', 'host-c-103'];
    const before = PARTNERS.map((partner) => ownerOf(partner, three));
    const after = PARTNERS.map((partner) => ownerOf(partner, ['host-a-101', 'host-c-103']));
    expect(PARTNERS.filter((_, i) => before[i] !== after[i] && before[i] !== 'host-b-102')).toEqual([]);
  });

  it('gives the same owner whatever the order of the list, and none from an empty one', () => {
    expect(PARTNERS.every((partner) => ownerOf(partner, ['a', 'b', 'c']) === ownerOf(partner, ['c', 'a', 'b']))).toBe(true);
    expect(ownerOf('p', [])).toBeUndefined();
  });
});
