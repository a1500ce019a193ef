/**
 * Pure: which checklist runs a sandbox keeps (reportsKept, reportMaxAgeDays: domain/quotas.ts). A run leaves a report
 * folder (runs started from the control API) and orders named for it (`chk-<tag>-NN`, every run, from the CLI too);
 * both are kept for the newest runs only, and both go together, so no kept report names an order that is gone.
 */
import type { Quotas } from '../hosted/quotas.js';

/** A run as the sandbox finds it: its tag, and the latest time it left (a report's start, an order's creation). */
export interface FoundRun {
  tag: string;
  at: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tag of a report folder (`2026-11-27T10-00-00-000Z-a1b2c3`), or undefined for a folder of another shape. */
export const tagOfReport = (id: string): string | undefined => /-([0-9a-f]{6})$/.exec(id)?.[1];

/** The tag of a checklist order (`chk-a1b2c3-07`), or undefined for any other order. */
export const tagOfOrder = (orderId: string): string | undefined => /^chk-([0-9a-f]{6})-\d+$/.exec(orderId)?.[1];

/** The tags kept: the newest `reportsKept` runs, none older than `reportMaxAgeDays`. A run found twice counts once, at its latest. */
export function keptRuns(runs: readonly FoundRun[], quotas: Pick<Quotas, 'reportsKept' | 'reportMaxAgeDays'>, now: number): Set<string> {
  const latest = new Map<string, number>();
  for (const run of runs) latest.set(run.tag, Math.max(latest.get(run.tag) ?? -Infinity, run.at));
  const oldest = quotas.reportMaxAgeDays === null ? -Infinity : now - quotas.reportMaxAgeDays * DAY_MS;
  const fresh = [...latest].filter(([, at]) => Number.isNaN(at) || at >= oldest).sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]));
  return new Set((quotas.reportsKept === null ? fresh : fresh.slice(0, quotas.reportsKept)).map(([tag]) => tag));
}
