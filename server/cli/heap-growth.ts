/**
 * How fast V8 lets the sandbox's heap grow. By its own measure V8 lets a heap grow by up to 4× between two full
 * collections while collecting is cheap; a server that keeps 20,000 refunds and a 5,000-entry journal then sits at
 * ~280 MB of resident memory after 100,000 refunds, most of it garbage V8 has not yet had a reason to collect.
 * A growth of 1.3× per collection keeps it near 160 MB, for a few percent more CPU spent collecting (README,
 * "Performance"). It is a soft setting: unlike `--max-old-space-size`, it never makes a big state fail to fit.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

/** The V8 flag the sandbox sets at start, or undefined when the user already chose one (node's own flags or NODE_OPTIONS). */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) => /^--heap[-_]growing[-_]percent(=|$)/.test(flag));
  return chosen ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Sets the flag for this process; V8 reads it at each full collection, so setting it at start is enough. */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag !== undefined) setFlagsFromString(flag);
}
