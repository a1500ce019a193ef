/** Pure: one failure, one root cause: an item failing as an earlier one did is its knock-on, whichever item first failed with the cause. */
import type { Verdict } from './checklist-types.js';

/** `earlier`: the items' own verdicts, before any linking, in the order judged. */
export function linkSameCause(itemId: string, verdict: Verdict, earlier: Iterable<readonly [string, Verdict]>): Verdict {
  if (verdict.status !== 'fail' || verdict.cause === undefined) return verdict;
  for (const [rootId, root] of earlier) {
    if (rootId !== itemId && root.status === 'fail' && root.cause === verdict.cause) {
      return { ...verdict, status: 'blocked', message: `${verdict.message}; the same as ${rootId}`, blockedBy: rootId };
    }
  }
  return verdict;
}
