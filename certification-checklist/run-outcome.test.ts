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
