/** Pure: the live lines a run prints, one per item as it finishes, and the summary at the end. */
import type { ItemStatus } from './checklist-types.js';
import type { RunOutcome } from './run-outcome.js';
import type { RunKindVerdict } from './run-kind.js';
import type { StepWait } from './steps/step-context.js';
import { printable } from '../server/http/messages.js';

const LABEL: Record<ItemStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  blocked: 'BLOCKED',
  not_applicable: 'N/A',
  skipped: 'SKIP',
  error: 'ERROR',
};

export interface ProgressItem {
  id: string;
  title: string;
  required: boolean;
  status: ItemStatus;
  message: string;
  remediation: string;
  /** The fix the evidence calls for, in place of the remediation. */
  hint?: string;
  blockedBy?: string;
  /** When the item that blocks this one is itself blocked: the root of the chain, the one to fix. */
  rootBlocker?: string;
}

/** A line per item, with the hint under a failure; a knock-on names the item to fix first instead. */
/** The longest id (MIGRATION-01) and a space: the titles line up. */
const ID_WIDTH = 13;

export function itemLine(item: ProgressItem): string {
  // A message may quote what the POS sent (a reply, an ExternalId): shown, never sent to the terminal as it came.
  const head = `  ${LABEL[item.status].padEnd(8)} ${item.id.padEnd(ID_WIDTH)}${item.title}${item.required ? '' : ' (optional)'}: ${printable(item.message)}`;
  if (item.blockedBy && item.rootBlocker && item.rootBlocker !== item.blockedBy) return `${head}\n           blocked by ${item.blockedBy}, itself blocked by ${item.rootBlocker}: fix ${item.rootBlocker} first\n`;
  if (item.blockedBy) return `${head}\n           blocked by ${item.blockedBy}: fix that first\n`;
  const hint = ['fail', 'warn', 'blocked'].includes(item.status) ? `\n           fix: ${item.hint ?? item.remediation}` : '';
  return `${head}${hint}\n`;
}

/** `  step order-accepted: 0.4 s`, with every wait that ran out, so a slow run says where its time went. */
export function stepLine(step: { id: string; durationMs: number; waits: readonly StepWait[] }): string {
  const full = step.waits.filter((wait) => wait.ended === 'timed out').map((wait) => `waited the whole ${seconds(wait.ms)} for ${wait.for}`);
  return `  step ${step.id}: ${seconds(step.durationMs)}${full.length > 0 ? ` (${full.join('; ')})` : ''}\n`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The closing lines; a run that is no certification says so first, so its PASSED is never read as one. */
/** The first lines of a run: what kind of run it is, so a demo or a partial run is never mistaken for a certification. */
export function kindLine(kind: RunKindVerdict): string {
  return kind.kind === 'certification' ? `  kind of run: certification (${kind.reason})\n` : `  kind of run: ${kind.kind}, NOT A CERTIFICATION (${kind.reason})\n`;
}

/** `signedBy`: who signed the report folder, in the words of its renderings. */
export function summaryLines(outcome: RunOutcome, kind: RunKindVerdict, reportDir: string | undefined, signedBy?: string): string {
  const counts = (Object.entries(outcome.counts) as Array<[ItemStatus, number]>)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${LABEL[status].toLowerCase()}`)
    .join(', ');
  const verdict = `${outcome.verdict.toUpperCase()}: ${outcome.reason}.`;
  return [
    '',
    kind.kind === 'certification' ? `CERTIFICATION RUN ${verdict}` : `NOT A CERTIFICATION (${kind.kind} run: ${kind.reason}). ${verdict}`,
    `  ${counts}`,
    ...(reportDir ? [`  report: ${reportDir}  (report.json, report.md, report.html, junit.xml, evidence.har, statement.json)`] : []),
    ...(reportDir && signedBy ? [`  signed: ${signedBy}`] : []),
    '',
  ].join('\n');
}
