import { describe, expect, it } from '@jest/globals';
import { keptRuns, tagOfOrder, tagOfReport } from './report-folders.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('keptRuns', () => {
  it('keeps the newest runs, a run found as a report and as orders counting once, at its latest', () => {
    const runs = [
      { tag: 'aaaaaa', at: NOW - 5000 },
      { tag: 'bbbbbb', at: NOW - 4000 },
      { tag: 'aaaaaa', at: NOW - 1000 },
      { tag: 'cccccc', at: NOW - 3000 },
    ];
    expect([...keptRuns(runs, { reportsKept: 2, reportMaxAgeDays: null }, NOW)]).toEqual(['aaaaaa', 'cccccc']);
  });

  it('drops runs older than the age, whatever the count', () => {
    const runs = [
      { tag: 'aaaaaa', at: NOW - 31 * DAY },
      { tag: 'bbbbbb', at: NOW - 29 * DAY },
    ];
    expect([...keptRuns(runs, { reportsKept: 20, reportMaxAgeDays: 30 }, NOW)]).toEqual(['bbbbbb']);
  });

  it('keeps every run without limits, and a run whose time cannot be read (it is never dropped for that)', () => {
    const runs = [
      { tag: 'aaaaaa', at: NOW - 400 * DAY },
      { tag: 'bbbbbb', at: Number.NaN },
    ];
    expect([...keptRuns(runs, { reportsKept: null, reportMaxAgeDays: null }, NOW)].sort()).toEqual(['aaaaaa', 'bbbbbb']);
    expect([...keptRuns(runs, { reportsKept: null, reportMaxAgeDays: 30 }, NOW)]).toEqual(['bbbbbb']);
  });
});

describe('tags', () => {
  it('reads the tag of a report folder and of a checklist order, and nothing of any other', () => {
    expect([tagOfReport('2026-11-27T10-00-00-000Z-a1b2c3'), tagOfReport('alpha-run'), tagOfReport('x-A1B2C3')]).toEqual(['a1b2c3', undefined, undefined]);
    expect([tagOfOrder('chk-a1b2c3-07'), tagOfOrder('ord-1'), tagOfOrder('chk-a1b2c3')]).toEqual(['a1b2c3', undefined, undefined]);
  });
});
