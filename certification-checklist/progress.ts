/** Pure: the live lines a run prints, one per item as it finishes, and the summary at the end. */
import type { ItemStatus } from './checklist-types.js';
import type { RunOutcome } from './run-outcome.js';

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
}

/** `  FAIL     ORDER-05  A duplicate delivery is idempotent: <why>` and, when it did not pass, the hint under it. */
export function itemLine(item: ProgressItem): string {
  const head = `  ${LABEL[item.status].padEnd(8)} ${item.id.padEnd(10)}${item.title}${item.required ? '' : ' (optional)'}: ${item.message}`;
  const hint = ['fail', 'warn', 'blocked'].includes(item.status) ? `\n           fix: ${item.remediation}` : '';
  return `${head}${hint}\n`;
}

/** The closing lines: counts, the verdict and where the report is. */
export function summaryLines(outcome: RunOutcome, reportDir: string | undefined): string {
  const counts = (Object.entries(outcome.counts) as Array<[ItemStatus, number]>)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${LABEL[status].toLowerCase()}`)
    .join(', ');
  return [
    '',
    `${outcome.verdict.toUpperCase()}: ${outcome.reason}.`,
    `  ${counts}`,
    ...(reportDir ? [`  report: ${reportDir}  (report.json, report.md, report.html, junit.xml)`] : []),
    '',
  ].join('\n');
}
