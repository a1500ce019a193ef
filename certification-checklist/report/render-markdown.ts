/** Pure: report.md, for a certification request or a pull request; everything in it comes from report.json. */
import type { ItemStatus } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';

export const STATUS_WORD: Record<ItemStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  blocked: 'BLOCKED',
  not_applicable: 'N/A',
  skipped: 'SKIPPED',
  error: 'ERROR',
};

const NOT_PASSED: ItemStatus[] = ['fail', 'blocked', 'error', 'warn'];
/** Markdown table cells: no pipes or line breaks. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderMarkdown(report: Report): string {
  const counts = Object.entries(report.outcome.counts).filter(([, n]) => n > 0).map(([status, n]) => `${n} ${STATUS_WORD[status as ItemStatus].toLowerCase()}`).join(', ');
  const lines = [
    `# POS certification report: ${report.sandbox.partner}`,
    '',
    `**${report.outcome.verdict.toUpperCase()}**: ${report.outcome.reason}. (${counts})`,
    '',
    '| | |',
    '|---|---|',
    `| Run | \`${report.runId}\` |`,
    `| Checklist version | ${report.checklistVersion} |`,
    `| Sandbox | ${report.sandboxVersion} at ${report.sandbox.url} |`,
    `| Mode | ${report.mode}${report.pos.driverUrl ? ` (${report.pos.driverUrl})` : ''} |`,
    `| POS order endpoint | ${report.pos.orderUrl ?? 'the sandbox’s --pos-order-url'} |`,
    `| Declared capabilities | ${report.capabilities.length > 0 ? report.capabilities.join(', ') : 'none'} |`,
    ...(report.only ? [`| Items selected | ${report.only.join(', ')} |`] : []),
    `| Started / finished | ${report.startedAt} / ${report.finishedAt} (${(report.durationMs / 1000).toFixed(1)} s) |`,
    `| Report digest | sha256 \`${report.digest?.value ?? ''}\` (check it with \`npx pos-sandbox verify-report <this folder>\`) |`,
    '',
    '## Items',
    '',
    '| Status | Item | § | Required | Result |',
    '|---|---|---|---|---|',
    ...report.items.map((item) => `| ${STATUS_WORD[item.status]} | **${item.id}** ${cell(item.title)} | ${cell(item.section)} | ${item.required ? 'yes' : 'optional'} | ${cell(item.message)} |`),
    '',
  ];
  const attention = report.items.filter((item) => NOT_PASSED.includes(item.status));
  if (attention.length > 0) {
    lines.push('## What to fix', '');
    for (const item of attention) lines.push(...details(item));
  }
  lines.push('## Evidence', '', 'Each piece is a journal entry of the sandbox, redacted (tokens as header, claims and hash), with the sha256 of its excerpt in report.json.', '');
  for (const item of report.items.filter((i) => i.evidence.length > 0)) {
    lines.push(`- **${item.id}**: ${item.evidence.map((piece) => `\`${piece.journalId}\` (${piece.sha256.slice(0, 12)}…)`).join(', ')}`);
  }
  lines.push('');
  return lines.join('\n');
}

function details(item: ReportItem): string[] {
  return [
    `### ${STATUS_WORD[item.status]} ${item.id}: ${item.title}`,
    '',
    `${item.message}`,
    '',
    `**Fix:** ${item.remediation} (${item.section})`,
    '',
    ...(item.evidence.length > 0 ? [`Evidence: ${item.evidence.map((piece) => `\`${piece.journalId}\``).join(', ')}`, ''] : []),
  ];
}
