/** Pure: a run's counts and its exit code: 0 every required item in scope passed, 1 otherwise. */
import { ITEM_STATUSES, type ItemStatus } from './checklist-types.js';
import { ONLY_SKIPPED } from './scope.js';

export interface JudgedItem {
  id: string;
  required: boolean;
  status: ItemStatus;
  message: string;
  blockedBy?: string;
}

export interface RunOutcome {
  counts: Record<ItemStatus, number>;
  /** 'passed': every required item in scope passed (warnings allowed); 'failed': one failed, was blocked or errored; 'incomplete': none failed, but some required item was not judged. */
  verdict: 'passed' | 'failed' | 'incomplete';
  exitCode: 0 | 1;
  /** The sentence the summary ends with; with one root cause, its message. */
  reason: string;
  /** The required items at the root of what failed, in checklist order, each with its message and the required items it blocks. */
  roots: RootCause[];
}

/** A required item that did not pass for a reason of its own, and the required items that did not pass because of it. */
export interface RootCause {
  id: string;
  status: ItemStatus;
  message: string;
  blocks: string[];
}

/** A run's results as the outcome reads them. */
export function judgedItems(results: ReadonlyArray<{ item: { id: string; required: boolean }; status: ItemStatus; message: string; blockedBy?: string }>): JudgedItem[] {
  return results.map((result) => ({ id: result.item.id, required: result.item.required, status: result.status, message: result.message, ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}) }));
}

const EXECUTED: ItemStatus[] = ['pass', 'warn', 'fail', 'blocked', 'error'];

export function runOutcome(items: readonly JudgedItem[]): RunOutcome {
  const counts = Object.fromEntries(ITEM_STATUSES.map((status) => [status, items.filter((item) => item.status === status).length])) as Record<ItemStatus, number>;
  const required = items.filter((item) => item.required);
  const broken = required.filter((item) => item.status === 'fail' || item.status === 'blocked' || item.status === 'error');
  if (broken.length > 0) {
    // The root causes first; their knock-ons are counted after them, not listed as failures of their own.
    const roots = broken.filter((item) => !item.blockedBy || !broken.some((other) => other.id === item.blockedBy));
    const knockOns = broken.filter((item) => !roots.includes(item));
    const named = roots.map((item) => `${item.id} (${item.status}${item.blockedBy ? ` by ${item.blockedBy}` : ''})`).join(', ');
    const more = knockOns.length === 0 ? '' : `; ${knockOns.length} more required item${knockOns.length === 1 ? ' was' : 's were'} blocked by ${roots.length === 1 ? 'it' : 'them'} (${knockOns.map((item) => item.id).join(', ')})`;
    // One cause: its own words come with the verdict, so every rendering says it first.
    const why = roots.length === 1 ? `. ${roots[0]!.id}: ${roots[0]!.message}` : '';
    const byId = new Map(items.map((item) => [item.id, item]));
    const rootOf = (item: JudgedItem): JudgedItem => {
      const seen = new Set<string>();
      let at = item;
      while (!roots.includes(at) && at.blockedBy && byId.has(at.blockedBy) && !seen.has(at.id)) {
        seen.add(at.id);
        at = byId.get(at.blockedBy)!;
      }
      return at;
    };
    const causes = roots.map((root) => ({ id: root.id, status: root.status, message: root.message, blocks: knockOns.filter((item) => rootOf(item) === root).map((item) => item.id) }));
    return { counts, verdict: 'failed', exitCode: 1, reason: `required item${roots.length === 1 ? '' : 's'} ${named} did not pass${more}${why}`, roots: causes };
  }
  const executed = required.filter((item) => EXECUTED.includes(item.status));
  if (executed.length === 0) return { counts, verdict: 'incomplete', exitCode: 1, reason: 'no required item was executed, so nothing was shown', roots: [] };
  // Items left out with --only are outside the run; items the mode could not judge are not passed.
  const unjudged = required.filter((item) => item.status === 'skipped' && item.message !== ONLY_SKIPPED);
  if (unjudged.length > 0) return { counts, verdict: 'incomplete', exitCode: 1, reason: `${unjudged.length} required items could not be judged in this mode (${unjudged.map((item) => item.id).join(', ')})`, roots: [] };
  return { counts, verdict: 'passed', exitCode: 0, reason: `every required item in scope passed (${executed.length} required; optional items do not count)`, roots: [] };
}
