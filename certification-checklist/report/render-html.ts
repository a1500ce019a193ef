/** Pure: report.html, one self-contained file (inline style, no script, no external resource), readable from disk. */
import type { ItemStatus } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';
import { STATUS_WORD } from './render-markdown.js';

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLOUR: Record<ItemStatus, string> = {
  pass: '#1a7f37',
  warn: '#9a6700',
  fail: '#cf222e',
  blocked: '#8250df',
  error: '#cf222e',
  not_applicable: '#57606a',
  skipped: '#57606a',
};

const STYLE = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.badge{display:inline-block;min-width:5.5rem;padding:.1rem .4rem;border-radius:.3rem;color:#fff;font-weight:600;font-size:12px;text-align:center}
.verdict{font-size:1.2rem;font-weight:700}details{margin:.4rem 0}summary{cursor:pointer}pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px}
.fix{border-left:4px solid #9a6700;padding-left:.6rem}code{font-size:12px}`;

const badge = (status: ItemStatus) => `<span class="badge" style="background:${COLOUR[status]}">${STATUS_WORD[status]}</span>`;

export function renderHtml(report: Report): string {
  const counts = Object.entries(report.outcome.counts).filter(([, n]) => n > 0).map(([status, n]) => `${n} ${STATUS_WORD[status as ItemStatus].toLowerCase()}`).join(', ');
  const facts: Array<[string, string]> = [
    ['Run', report.runId],
    ['Checklist version', report.checklistVersion],
    ['Sandbox', `${report.sandboxVersion} at ${report.sandbox.url}`],
    ['Mode', `${report.mode}${report.pos.driverUrl ? ` (${report.pos.driverUrl})` : ''}`],
    ['POS order endpoint', report.pos.orderUrl ?? 'the sandbox’s --pos-order-url'],
    ['Declared capabilities', report.capabilities.length > 0 ? report.capabilities.join(', ') : 'none'],
    ...(report.only ? [['Items selected', report.only.join(', ')] as [string, string]] : []),
    ['Started / finished', `${report.startedAt} / ${report.finishedAt} (${(report.durationMs / 1000).toFixed(1)} s)`],
    ['Report digest (sha256)', report.digest?.value ?? ''],
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>POS certification report: ${html(report.sandbox.partner)} (${html(report.runId)})</title>
<style>${STYLE}</style>
</head>
<body>
<h1>POS certification report: ${html(report.sandbox.partner)}</h1>
<p class="verdict" style="color:${report.outcome.exitCode === 0 ? COLOUR.pass : COLOUR.fail}">${html(report.outcome.verdict.toUpperCase())}: ${html(report.outcome.reason)}.</p>
<p>${html(counts)}</p>
<table>${facts.map(([name, value]) => `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>`).join('')}</table>
<p>Check that this report was not edited: <code>npx pos-sandbox verify-report &lt;this folder&gt;</code>.</p>
<h2>Items</h2>
<table><tr><th>Status</th><th>Item</th><th>§</th><th>Required</th></tr>
${report.items.map((item) => `<tr><td>${badge(item.status)}</td><td><a href="#${item.id}">${item.id}</a> ${html(item.title)}</td><td>${html(item.section)}</td><td>${item.required ? 'yes' : 'optional'}</td></tr>`).join('\n')}
</table>
<h2>Details</h2>
${report.items.map(itemSection).join('\n')}
</body>
</html>
`;
}

function itemSection(item: ReportItem): string {
  const fix = ['fail', 'warn', 'blocked', 'error'].includes(item.status) ? `<p class="fix"><strong>Fix:</strong> ${html(item.remediation)}</p>` : '';
  const evidence = item.evidence
    .map((piece) => `<details><summary>Evidence <code>${html(piece.journalId)}</code> sha256 <code>${piece.sha256.slice(0, 16)}…</code></summary><pre>${html(JSON.stringify(piece.excerpt, null, 2))}</pre></details>`)
    .join('\n');
  return `<section id="${item.id}"><h3>${badge(item.status)} ${item.id}: ${html(item.title)}</h3>
<p>${html(item.message)}</p>${fix}
<p><small>${html(item.section)} · ${item.category} · ${item.required ? 'required' : 'optional'}${item.capabilities.length > 0 ? ` · needs ${html(item.capabilities.join(', '))}` : ''}</small></p>
${evidence}</section>`;
}
