/** Pure: coverage gathered apart (jest's, and each spawned process's through source maps) joined on the source lines and branches both map back to. */

/** The parts of an istanbul file coverage (coverage-final.json) this reads. */
export interface FileCoverage {
  statementMap: Record<string, { start: { line: number } }>;
  s: Record<string, number>;
  branchMap: Record<string, { locations: Array<{ start: { line: number; column: number } }> }>;
  b: Record<string, number[]>;
}

export type CoverageMap = Record<string, FileCoverage>;

export interface Totals {
  lines: { covered: number; total: number };
  branches: { covered: number; total: number };
}

/** Lines and branch arms, covered and in all, over `files` (absolute paths) of every map given. */
export function mergedTotals(maps: readonly CoverageMap[], files: readonly string[]): Totals {
  const totals: Totals = { lines: { covered: 0, total: 0 }, branches: { covered: 0, total: 0 } };
  for (const file of files) {
    const lines = new Map<number, boolean>();
    const arms = new Map<string, boolean>();
    const present = maps.map((map) => map[file]).filter((coverage): coverage is FileCoverage => coverage !== undefined);
    // A run that never loaded the file reports a branch that is not one of its own.
    const ran = present.filter((coverage) => Object.values(coverage.s).some((count) => count > 0));
    for (const coverage of present) {
      for (const [id, statement] of Object.entries(coverage.statementMap)) {
        const line = statement.start.line;
        lines.set(line, (lines.get(line) ?? false) || (coverage.s[id] ?? 0) > 0);
      }
    }
    for (const coverage of ran.length > 0 ? ran : present) {
      for (const [id, branch] of Object.entries(coverage.branchMap)) {
        branch.locations.forEach((location, arm) => {
          const key = `${location.start.line}:${location.start.column}`;
          arms.set(key, (arms.get(key) ?? false) || (coverage.b[id]?.[arm] ?? 0) > 0);
        });
      }
    }
    totals.lines.total += lines.size;
    totals.lines.covered += [...lines.values()].filter(Boolean).length;
    totals.branches.total += arms.size;
    totals.branches.covered += [...arms.values()].filter(Boolean).length;
  }
  return totals;
}

/** 87.31 % */
export const percent = ({ covered, total }: { covered: number; total: number }): string => `${total === 0 ? '100.00' : ((covered / total) * 100).toFixed(2)} %`;
