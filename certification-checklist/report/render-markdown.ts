/** Pure: report.md, for a certification request or a pull request; everything in it comes from report.json. */
import type { Report } from './report-model.js';
import { reportView, STATUS_WORD, type FixEntry } from './report-view.js';

export { STATUS_WORD };

/** Markdown table cells: no pipes or line breaks. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderMarkdown(report: Report): string {
  const view = reportView(report);
  const lines = [
    `# ${view.title}`,
    '',
    ...(view.notice ? [`> **${view.notice}**`, ''] : []),
    `**${view.verdict}** (${view.counts})`,
    '',
    ...fixFirstSection(view.fixFirst),
    '## Certification statement',
    '',
    '| | |',
    '|---|---|',
    ...view.statement.map(([name, value]) => `| ${name} | ${cell(value)} |`),
    '',
    'statement.json holds the same, signed (statement.jws); manifest.json lists every file\'s sha256 and signature.jws signs it.',
    '',
    '## Run',
    '',
    '| | |',
    '|---|---|',
    ...view.facts.map(([name, value]) => `| ${name} | ${cell(value)} |`),
    '',
    `Check the signature, that this report was not edited, and judge its evidence again: \`npx pos-sandbox verify-report --rejudge [--keys <the deployment's jwks.json>] <this folder>\`.`,
    '',
    '## Items',
    '',
    '| Status | Item | § | Required | Result |',
    '|---|---|---|---|---|',
    ...view.rows.map(({ item, label }) => `| ${label} | **${item.id}** ${cell(item.title)} | ${cell(item.section)} | ${item.required ? 'yes' : 'optional'} | ${cell(item.message)} |`),
    '',
  ];
  lines.push('## Steps', '', '| Step | Time | Waits |', '|---|---|---|', ...view.steps.map((step) => `| ${step.id} | ${step.seconds} | ${cell(step.waits)} |`), '');
  lines.push('## Evidence', '', `Each piece is a journal entry of the sandbox, redacted (tokens as header, claims and hash), stored once in report.json with its sha256, and in evidence.har. ${report.evidence.length} entries.`, '');
  for (const item of report.items.filter((i) => i.evidence.length > 0)) lines.push(`- **${item.id}**: ${item.evidence.map((id) => `\`${id}\``).join(', ')}`);
  lines.push('');
  return lines.join('\n');
}

/** What to fix, first in the file: the root causes, each with the items it blocks. */
function fixFirstSection(entries: readonly FixEntry[]): string[] {
  if (entries.length === 0) return [];
  return ['## What to fix first', '', 'Root causes first: an item that blocks others is listed with them, and fixing it unblocks them.', '', ...entries.flatMap(fixSection)];
}

function fixSection({ item, label, blocks }: FixEntry): string[] {
  return [
    `### ${label} ${item.id}: ${item.title}`,
    '',
    item.message,
    '',
    item.blockedBy ? `**Blocked by ${item.blockedBy}**, which is outside this run: fix it first. (${item.section})` : `**Fix:** ${item.hint ?? item.remediation} (${item.section})`,
    '',
    ...(blocks.length > 0 ? [`**Also blocks:** ${blocks.map((other) => `${other.id} (${other.title})`).join('; ')}`, ''] : []),
    ...(item.evidence.length > 0 ? [`Evidence: ${item.evidence.map((id) => `\`${id}\``).join(', ')}`, ''] : []),
  ];
}
