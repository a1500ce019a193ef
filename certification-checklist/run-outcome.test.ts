import { describe, expect, it } from '@jest/globals';
import type { ItemStatus } from './checklist-types.js';
import { runOutcome } from './run-outcome.js';

const item = (id: string, status: ItemStatus, required = true, message = '') => ({ id, status, required, message });

describe('runOutcome', () => {
  it.each([
    ['every required item passed, with a warning', [item('A', 'pass'), item('B', 'warn'), item('R', 'fail', false)], 0, 'passed'],
    ['a required item failed', [item('A', 'pass'), item('B', 'fail')], 1, 'failed'],
    ['a required item was blocked', [item('A', 'pass'), item('B', 'blocked')], 1, 'failed'],
    ['a verdict errored', [item('A', 'pass'), item('B', 'error')], 1, 'failed'],
    ['no required item was executed', [item('A', 'skipped', true, 'not selected (--only)'), item('R', 'pass', false)], 1, 'incomplete'],
    ['a required item could not be judged in this mode', [item('A', 'pass'), item('B', 'skipped', true, 'the POS must be made to act')], 1, 'incomplete'],
    ['items left out with --only or not applicable do not count', [item('A', 'pass'), item('B', 'skipped', true, 'not selected (--only)'), item('C', 'not_applicable')], 0, 'passed'],
  ] as const)('exits %#: %s', (_case, items, exitCode, verdict) => {
    expect(runOutcome(items)).toMatchObject({ exitCode, verdict });
  });
});

describe('runOutcome reasons', () => {
  it('names the root cause and counts its knock-ons after it, not as failures of their own', () => {
    const items = [item('AUTH-06', 'fail', true, 'exp is in milliseconds'), { ...item('ORDER-02', 'blocked'), blockedBy: 'AUTH-06' }, { ...item('MENU-01', 'blocked'), blockedBy: 'MENU-03' }, { ...item('MENU-03', 'blocked'), blockedBy: 'AUTH-06' }, item('ORDER-05', 'pass')];
    expect(runOutcome(items)).toMatchObject({
      reason: 'required item AUTH-06 (fail) did not pass; 3 more required items were blocked by it (ORDER-02, MENU-01, MENU-03). AUTH-06: exp is in milliseconds',
      roots: [{ id: 'AUTH-06', status: 'fail', message: 'exp is in milliseconds', blocks: ['ORDER-02', 'MENU-01', 'MENU-03'] }],
    });
  });

  it('names every root, each with what it blocks, and no one message when there are several', () => {
    const items = [item('AUTH-06', 'fail', true, 'a'), item('ORDER-05', 'fail', true, 'b'), { ...item('ORDER-02', 'blocked'), blockedBy: 'AUTH-06' }];
    expect(runOutcome(items)).toMatchObject({
      reason: 'required items AUTH-06 (fail), ORDER-05 (fail) did not pass; 1 more required item was blocked by them (ORDER-02)',
      roots: [{ id: 'AUTH-06', blocks: ['ORDER-02'] }, { id: 'ORDER-05', blocks: [] }],
    });
  });

  it('names a knock-on whose root is outside the run (left out with --only) with that root', () => {
    expect(runOutcome([{ ...item('ORDER-02', 'blocked', true, 'refused 401'), blockedBy: 'AUTH-06' }]).reason).toBe('required item ORDER-02 (blocked by AUTH-06) did not pass. ORDER-02: refused 401');
  });
});
