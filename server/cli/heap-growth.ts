/**
 * How fast V8 lets the sandbox's heap grow. By its own measure V8 lets a heap grow by up to 4× between two full
 * collections while collecting is cheap; a server that keeps 20,000 refunds and a 5,000-entry journal (35 MB live
 * after a full collection) then sits at ~280 MB of resident memory after 100,000 refunds, most of it garbage V8 had
 * no reason yet to collect. Growth per collection, measured on 2026-11-24 (RSS after 100,000 refunds / server CPU
 * per 500-item menu update, bench/server-cpu.ts): 4× (V8's own) 279 MB / 3.8–4.4 ms; 2× 189 MB / 3.4 ms;
 * 1.8× 182 MB / 3.75 ms; 1.3× 151–160 MB / 4.75–5.75 ms. 1.8× is the most V8 itself allows a 1.5 GB heap.
 * It is a soft setting: unlike `--max-old-space-size`, it never makes a big state fail to fit.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 80;

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
