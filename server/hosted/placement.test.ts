import { describe, expect, it } from '@jest/globals';
import { ownerOf, followingStep, leadingStep, type FollowingView, type LeadingView } from './placement.js';

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

const following = (view: Partial<FollowingView>): FollowingView => ({ self: 'a', selfLive: true, owner: 'a', row: undefined, rowLive: false, lazy: true, wanted: false, ...view });
const leading = (view: Partial<LeadingView>): LeadingView => ({ self: 'a', owner: 'a', ownerStable: true, handOverAllowed: true, idleForMs: 0, idleMs: 600_000, busy: undefined, ...view });

describe('followingStep', () => {
  it('leaves a partner that never ran, or was put away, asleep until a request wants it', () => {
    expect(followingStep(following({}))).toBe('wait');
    expect(followingStep(following({ row: { instanceId: '' } }))).toBe('wait');
    expect(followingStep(following({ wanted: true }))).toBe('take');
    expect(followingStep(following({ owner: 'b', row: { instanceId: '' } }))).toBe('wait');
  });

  it('runs every partner it owns at once when partners are not made lazily', () => {
    expect(followingStep(following({ lazy: false }))).toBe('take');
    expect(followingStep(following({ lazy: false, owner: 'b' }))).toBe('orphan');
  });

  it("takes a partner it owns whose leader went (it may have work left), and another's when its leader is gone", () => {
    expect(followingStep(following({ row: { instanceId: 'dead' } }))).toBe('take');
    expect(followingStep(following({ owner: 'b', row: { instanceId: 'dead' }, rowLive: false }))).toBe('orphan');
    expect(followingStep(following({ owner: 'b', row: { instanceId: 'b' }, rowLive: true }))).toBe('wait');
    // It handed the partner over, and the owner did not take it.
    expect(followingStep(following({ owner: 'b', row: { instanceId: 'a' }, rowLive: true }))).toBe('notTaken');
  });

  it('takes nothing while its own lease does not run', () => {
    expect(followingStep(following({ selfLive: false, wanted: true }))).toBe('wait');
  });
});

describe('leadingStep', () => {
  it('hands over to a stable owner, unless in the back-off', () => {
    expect(leadingStep(leading({ owner: 'b' }))).toBe('handOver');
    expect(leadingStep(leading({ owner: 'b', ownerStable: false }))).toBe('keep');
    expect(leadingStep(leading({ owner: 'b', handOverAllowed: false }))).toBe('keep');
  });

  it('puts away an idle partner that has nothing under way, and never with --idle-ms 0', () => {
    expect(leadingStep(leading({ idleForMs: 600_000 }))).toBe('putAway');
    expect(leadingStep(leading({ idleForMs: 599_999 }))).toBe('keep');
    expect(leadingStep(leading({ idleForMs: 600_000, busy: '2 refunds pending' }))).toBe('keep');
    expect(leadingStep(leading({ idleForMs: 10 ** 9, idleMs: 0 }))).toBe('keep');
  });
});
