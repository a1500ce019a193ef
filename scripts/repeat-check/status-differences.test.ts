import { describe, expect, it } from '@jest/globals';
import { statusDifferences } from './status-differences.js';

const run = (statuses: Record<string, string>) => Object.fromEntries(Object.entries(statuses).map(([id, status]) => [id, { status, message: `${id} ${status}` }]));

describe('statusDifferences', () => {
  it('finds nothing when every run gave every item the same status, whatever the messages', () => {
    expect(statusDifferences([run({ 'REFUND-06': 'pass' }), { 'REFUND-06': { status: 'pass', message: 'sent again 1012 ms later' } }])).toEqual([]);
  });

  it('names each item whose status moved, with the runs of each status and what it said', () => {
    expect(statusDifferences([run({ 'REFUND-03': 'pass', 'REFUND-06': 'pass' }), run({ 'REFUND-03': 'pass', 'REFUND-06': 'blocked' }), run({ 'REFUND-03': 'pass', 'REFUND-06': 'pass' })])).toEqual([
      'REFUND-06: pass in runs 1, 3 ("REFUND-06 pass"); blocked in run 2 ("REFUND-06 blocked")',
    ]);
  });

  it('counts a knock-on of another root as another status, and an item missing from a report as one too', () => {
    expect(statusDifferences([run({ 'ORDER-02': 'blocked by AUTH-06' }), run({ 'ORDER-02': 'blocked by ORDER-01' }), run({})])).toEqual([
      'ORDER-02: blocked by AUTH-06 in run 1 ("ORDER-02 blocked by AUTH-06"); blocked by ORDER-01 in run 2 ("ORDER-02 blocked by ORDER-01"); absent in run 3 ("not in the report")',
    ]);
  });
});
