/**
 * Pure: one failure, one root cause. When an item fails the way an earlier item already failed (a POS that never
 * sends a status call fails ORDER-02, and then the rejected, Hub and Kiosk orders for the very same reason; a menu
 * update refused for one mistake at every location), it is that item's knock-on, and its fix line does not send the
 * partner looking for a Hub or Kiosk problem it does not have. The cause decides, not the item: whichever item
 * first failed with it is the root.
 */
import type { Verdict } from './checklist-types.js';

/**
 * `verdict` of `itemId`, or its knock-on of the first earlier item that failed with the same cause. `earlier`: the
 * items' own verdicts (before any linking) in the order they were judged.
 */
export function linkSameCause(itemId: string, verdict: Verdict, earlier: Iterable<readonly [string, Verdict]>): Verdict {
  if (verdict.status !== 'fail' || verdict.cause === undefined) return verdict;
  for (const [rootId, root] of earlier) {
    if (rootId !== itemId && root.status === 'fail' && root.cause === verdict.cause) {
      return { ...verdict, status: 'blocked', message: `${verdict.message}; the same as ${rootId}`, blockedBy: rootId };
    }
  }
  return verdict;
}
