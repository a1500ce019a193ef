import { describe, expect, it } from '@jest/globals';
import type { ItemStatus } from '../checklist-types.js';
import type { ReportItem } from './report-model.js';
import { fixFirst } from './report-view.js';

const item = (id: string, status: ItemStatus, blockedBy?: string): ReportItem => ({
  id,
  title: id,
  section: '§5',
  category: 'ORDER',
  required: true,
  capabilities: [],
  status,
  message: '',
  remediation: '',
  evidence: [],
  ...(blockedBy ? { blockedBy } : {}),
});

describe('fixFirst', () => {
  it('lists a root cause first with every item it blocks, through chains of knock-ons', () => {
    const items = [item('ORDER-01', 'warn'), item('ORDER-03', 'blocked', 'AUTH-06'), item('ORDER-04', 'blocked', 'ORDER-03'), item('ORDER-05', 'fail'), item('AUTH-06', 'fail'), item('AUTH-01', 'pass')];
    expect(fixFirst(items).map((entry) => [entry.item.id, entry.blocks.map((blocked) => blocked.id)])).toEqual([
      ['AUTH-06', ['ORDER-03', 'ORDER-04']],
      ['ORDER-05', []],
      ['ORDER-01', []],
    ]);
  });

  it('keeps a knock-on whose root is outside the run on its own, and survives a loop of knock-ons', () => {
    expect(fixFirst([item('ORDER-02', 'blocked', 'AUTH-06')]).map((entry) => entry.item.id)).toEqual(['ORDER-02']);
    expect(fixFirst([item('A', 'blocked', 'B'), item('B', 'blocked', 'A')]).map((entry) => entry.item.id)).toEqual(['A', 'B']);
  });
});
