/** Pure: what every human rendering of a report shows, in order: report.md and report.html render this one view. */
import type { ItemStatus } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';
import { signerWords, statementRows } from './render-statement.js';

export const STATUS_WORD: Record<ItemStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  blocked: 'BLOCKED',
  not_applicable: 'N/A',
  skipped: 'SKIPPED',
  error: 'ERROR',
};

export interface ItemRow {
  item: ReportItem;
  /** `BLOCKED by AUTH-06` for a knock-on, else the status word. */
  label: string;
}

/** One thing to fix, with the knock-ons it causes: fixing it is what unblocks them. */
export interface FixEntry {
  item: ReportItem;
  label: string;
  /** Items blocked by this one. */
  blocks: ReportItem[];
}

export interface ReportView {
  title: string;
  /** "NOT A CERTIFICATION: demo run — …", absent for a certification. */
  notice?: string;
  verdict: string;
  counts: string;
  /** statement.json as rows: what the service's team reads first, at the top of every human rendering. */
  statement: Array<[string, string]>;
  facts: Array<[string, string]>;
  rows: ItemRow[];
  /** Root causes first (most knock-ons first), then other failures, blocked items, warnings. */
  fixFirst: FixEntry[];
  steps: Array<{ id: string; seconds: string; waits: string }>;
}

const labelOf = (item: ReportItem) => (item.blockedBy ? `${STATUS_WORD[item.status]} by ${item.blockedBy}` : STATUS_WORD[item.status]);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function reportView(report: Report): ReportView {
  const counts = Object.entries(report.outcome.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${STATUS_WORD[status as ItemStatus].toLowerCase()}`)
    .join(', ');
  const pos = report.pos;
  const facts: Array<[string, string]> = [
    ['POS under test', `${pos.name}${pos.referencePos ? ' (the bundled reference POS)' : ''}`],
    ['POS version', pos.version ?? 'not given (--pos-version)'],
    ...(pos.build ? [['POS build', pos.build] as [string, string]] : []),
    ['Kind of run', `${report.kind}: ${report.kindReason}`],
    ['Run', report.runId],
    ['Checklist version', report.checklistVersion],
    ['Sandbox', `${report.sandboxVersion} at ${report.sandbox.url} (partner ${report.sandbox.partner})`],
    ['Mode', `${report.mode}${pos.driverUrl ? ` (${pos.driverUrl})` : ''}`],
    ['POS order endpoint', pos.orderUrl ?? 'the sandbox’s --pos-order-url'],
    ['Declared capabilities', report.capabilities.length > 0 ? report.capabilities.join(', ') : 'none'],
    ...(report.only ? [['Items selected', report.only.join(', ')] as [string, string]] : []),
    ['Started / finished', `${report.startedAt} / ${report.finishedAt} (${seconds(report.durationMs)})`],
    ['Report digest (sha256)', report.digest?.value ?? ''],
    ['Signed by', signerWords(report.signer).who],
  ];
  return {
    title: report.title,
    ...(report.kind === 'certification' ? {} : { notice: `NOT A CERTIFICATION: ${report.kind} run, ${report.kindReason}.` }),
    verdict: `${report.outcome.verdict.toUpperCase()}: ${report.outcome.reason}.`,
    counts,
    statement: statementRows(report),
    facts,
    rows: report.items.map((item) => ({ item, label: labelOf(item) })),
    fixFirst: fixFirst(report.items),
    steps: report.steps.map((step) => ({
      id: step.id,
      seconds: seconds(step.durationMs),
      waits: step.waits.map((wait) => `${wait.for}: ${seconds(wait.ms)}${wait.ended === 'timed out' ? ', the whole wait, nothing came' : wait.ended === 'window' ? ' (watched)' : ''}`).join('; '),
    })),
  };
}

const NEEDS_FIXING: ItemStatus[] = ['fail', 'error', 'blocked', 'warn'];

/** The items to fix, root causes first, each with the knock-ons it causes (through chains: AUTH-06 → ORDER-03 → ORDER-04). */
export function fixFirst(items: readonly ReportItem[]): FixEntry[] {
  const attention = items.filter((item) => NEEDS_FIXING.includes(item.status));
  const byId = new Map(attention.map((item) => [item.id, item]));
  // A knock-on is shown under the item at the root of its chain; one whose root is outside the run stands alone.
  const rootOf = (item: ReportItem): ReportItem => {
    let root = item;
    const seen = new Set<string>();
    while (root.blockedBy && byId.has(root.blockedBy) && !seen.has(root.id)) {
      seen.add(root.id);
      root = byId.get(root.blockedBy)!;
    }
    return root;
  };
  const standalone = attention.filter((item) => rootOf(item) === item);
  const entries = standalone.map((item) => ({ item, label: labelOf(item), blocks: attention.filter((other) => other !== item && rootOf(other) === item) }));
  const rank = (entry: FixEntry) => (entry.blocks.length > 0 ? 0 : entry.item.status === 'fail' || entry.item.status === 'error' ? 1 : entry.item.status === 'blocked' ? 2 : 3);
  return entries.map((entry, index) => ({ entry, index })).sort((a, b) => rank(a.entry) - rank(b.entry) || b.entry.blocks.length - a.entry.blocks.length || a.index - b.index).map(({ entry }) => entry);
}
