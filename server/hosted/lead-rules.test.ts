import { describe, expect, it } from '@jest/globals';
import { followingStep, leadingStep, type FollowingView, type LeadingView } from './lead-rules.js';

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
