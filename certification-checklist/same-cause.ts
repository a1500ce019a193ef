/**
 * Pure: one failure, one root cause. When an item fails the way an earlier item already failed (a POS that never
 * sends a status call fails ORDER-02, and then the rejected, Hub and Kiosk orders for the very same reason), it is
 * that item's knock-on, and its fix line does not send the partner looking for a Hub or Kiosk problem it does not have.
 */
import type { Verdict } from './checklist-types.js';

/** The earlier item whose failure, when it has the same cause, is the root of each item's. */
export const SAME_CAUSE_ROOT: Readonly<Record<string, string>> = {
  'ORDER-03': 'ORDER-02',
  'ORDER-07': 'ORDER-02',
  'ORDER-08': 'ORDER-02',
  'MENU-02': 'MENU-01',
  'MENU-08': 'MENU-01',
  'MENU-09': 'MENU-01',
  'REFUND-04': 'REFUND-01',
  'REFUND-05': 'REFUND-01',
};

/** `verdict` of `itemId`, or its knock-on of the earlier item that failed with the same cause. */
export function linkSameCause(itemId: string, verdict: Verdict, earlier: (id: string) => Verdict | undefined): Verdict {
  const rootId = SAME_CAUSE_ROOT[itemId];
  const root = rootId === undefined ? undefined : earlier(rootId);
  if (verdict.status !== 'fail' || verdict.cause === undefined || root?.status !== 'fail' || root.cause !== verdict.cause) return verdict;
  return { ...verdict, status: 'blocked', message: `${verdict.message}; the same as ${rootId}`, blockedBy: rootId! };
}
