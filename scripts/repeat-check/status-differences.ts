/** Pure: what differs between runs of one configuration, item by item: the check that a verdict is the same every run. */

/** One run's verdicts: `pass`, `fail`, `blocked by AUTH-06` …, by item id, with the message of each. */
export type RunStatuses = Record<string, { status: string; message: string }>;

/** Every item whose status is not the same in all `runs`, each with the runs (1-based) of each status and a message of it. */
export function statusDifferences(runs: readonly RunStatuses[]): string[] {
  const ids = [...new Set(runs.flatMap((run) => Object.keys(run)))].sort();
  const lines: string[] = [];
  for (const id of ids) {
    const byStatus = new Map<string, { runs: number[]; message: string }>();
    runs.forEach((run, index) => {
      const said = run[id] ?? { status: 'absent', message: 'not in the report' };
      const seen = byStatus.get(said.status) ?? { runs: [], message: said.message };
      seen.runs.push(index + 1);
      byStatus.set(said.status, seen);
    });
    if (byStatus.size < 2) continue;
    lines.push(`${id}: ${[...byStatus].map(([status, seen]) => `${status} in run${seen.runs.length === 1 ? '' : 's'} ${seen.runs.join(', ')} ("${seen.message}")`).join('; ')}`);
  }
  return lines;
}
