/** MIGRATION: the v1 habits v2 still understands; those it cannot are refused, and the item that needed the call fails in the sandbox's words. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { waitsForRefundResult } from '../../server/migration/v1-habits.js';
import { routePathOf } from '../../server/http/route.js';
import type { ChecklistItem } from '../checklist-types.js';
import { countOf, findingMessage, posCalls } from '../traffic.js';
import { blocked, pass, warn } from '../verdicts.js';

/** The v1 habit a call shows that v2 took or ignored: a V1_HABIT finding, or a read that waits for a refund result. */
function v1Habit(entry: JournalEntry): string | undefined {
  const found = findingMessage([entry], 'V1_HABIT');
  if (found !== undefined) return found;
  return waitsForRefundResult(entry.method, routePathOf(entry.path)) ? `${entry.method} ${entry.path} waits for a refund's result, which v2 never gives (§1; §9: the call flow is asynchronous)` : undefined;
}

export const MIGRATION_ITEMS: ChecklistItem[] = [
  {
    id: 'MIGRATION-01',
    title: 'No call keeps a v1 habit',
    section: '§9',
    category: 'MIGRATION',
    required: true,
    remediation:
      "Finish §9's migration: drop v1's CompanyProfileId and UpdateOrderState from the bodies, and stop waiting for a refund's result (v2 answers 200 once a refund is accepted and tells the POS nothing more). `pos-sandbox migration` lists every call that still shows a v1 habit (warn level: v2 takes these calls).",
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const calls = posCalls(traffic);
      if (calls.length === 0) return blocked('the POS made no call to the sandbox during the run, so there is nothing to judge');
      const kept = calls.filter((entry) => v1Habit(entry) !== undefined);
      if (kept.length === 0) return pass(`no v1 habit: all ${calls.length} calls`, calls);
      const first = kept[0]!;
      return warn(`${countOf(kept.length, calls.length)} kept a v1 habit; ${first.method} ${first.path} (${first.id}): ${v1Habit(first)}`, kept);
    },
  },
];
