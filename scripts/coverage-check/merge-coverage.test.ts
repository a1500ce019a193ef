import { describe, expect, it } from '@jest/globals';
import { mergedTotals, percent, type FileCoverage } from './merge-coverage.js';

/** A file coverage with statements on `lines` (count each) and one branch of two arms starting at 3:4 and 5:0. */
const file = (lines: Record<number, number>, arms: [number, number]): FileCoverage => ({
  statementMap: Object.fromEntries(Object.keys(lines).map((line, i) => [String(i), { start: { line: Number(line) } }])),
  s: Object.fromEntries(Object.values(lines).map((count, i) => [String(i), count])),
  branchMap: { '0': { locations: [{ start: { line: 3, column: 4 } }, { start: { line: 5, column: 0 } }] } },
  b: { '0': arms },
});

describe('mergedTotals', () => {
  it('covers a line or an arm when any run covered it, and counts each once', () => {
    const inJest = { '/a.ts': file({ 1: 1, 2: 0, 3: 0 }, [1, 0]) };
    const inChildren = { '/a.ts': file({ 2: 4, 3: 0 }, [0, 0]) };
    expect(mergedTotals([inJest, inChildren], ['/a.ts'])).toEqual({ lines: { covered: 2, total: 3 }, branches: { covered: 1, total: 2 } });
  });

  it('takes the branches of the runs that loaded a file, not the whole-file branch of one that never did', () => {
    const unloaded: FileCoverage = { statementMap: { '0': { start: { line: 1 } }, '1': { start: { line: 2 } } }, s: { '0': 0, '1': 0 }, branchMap: { '0': { locations: [{ start: { line: 1, column: 0 } }] } }, b: { '0': [0] } };
    expect(mergedTotals([{ '/a.ts': unloaded }, { '/a.ts': file({ 1: 1, 2: 1 }, [1, 1]) }], ['/a.ts'])).toEqual({ lines: { covered: 2, total: 2 }, branches: { covered: 2, total: 2 } });
    expect(mergedTotals([{ '/a.ts': unloaded }], ['/a.ts'])).toEqual({ lines: { covered: 0, total: 2 }, branches: { covered: 0, total: 1 } });
  });

  it('counts a file no run loaded as nothing covered, and leaves out files not asked for', () => {
    expect(mergedTotals([{ '/a.ts': file({ 1: 0 }, [0, 0]), '/b.ts': file({ 1: 9 }, [9, 9]) }], ['/a.ts'])).toEqual({ lines: { covered: 0, total: 1 }, branches: { covered: 0, total: 2 } });
    expect(percent({ covered: 1, total: 3 })).toBe('33.33 %');
  });
});
