/**
 * fast-check with a fixed seed: every run of `npm test` sends the same cases, and a failure names the seed and path
 * that replay it (FUZZ_SEED=<seed> npm test -- <file>). FUZZ_RUNS_SCALE=10 runs ten times as many cases.
 */
import fc from 'fast-check';

/** The seed of every property, unless FUZZ_SEED names another. */
export const FUZZ_SEED = Number.parseInt(process.env.FUZZ_SEED ?? '', 10) || 20_261_121;

/** Jest's time limit for one property: a failure's shrinking sends many more cases than the run. */
export const PROPERTY_TIMEOUT_MS = 60_000;

const SCALE = Number(process.env.FUZZ_RUNS_SCALE ?? '1') || 1;

/** Runs `property` `numRuns` times (scaled); a failure throws fast-check's report with the seed and the shrunk case. */
export async function assertProperty<T>(property: fc.IAsyncPropertyWithHooks<T> | fc.IPropertyWithHooks<T>, numRuns: number): Promise<void> {
  const details = await fc.check(property, { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(numRuns * SCALE)) });
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? 'property failed';
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`${report}\n\nWhat went wrong with that case:\n${error}\n\nReplay: FUZZ_SEED=${details.seed} (path ${details.counterexamplePath ?? '?'})`);
}
