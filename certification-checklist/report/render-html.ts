/** Pure: report.html, one self-contained file (inline style, no script, no external resource), readable from disk. */
import type { ItemStatus } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';
import { reportView, type FixEntry } from './report-view.js';

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

const STYLE = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.badge{display:inline-block;min-width:5.5rem;padding:.1rem .4rem;border-radius:.3rem;color:#fff;font-weight:600;font-size:12px;text-align:center}
.notice{border:3px solid #cf222e;color:#cf222e;padding:.6rem 1rem;font-size:1.1rem;font-weight:700}
.verdict{font-size:1.2rem;font-weight:700}details{margin:.4rem 0}summary{cursor:pointer}pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px}
.fix{border-left:4px solid #9a6700;padding-left:.6rem}code{font-size:12px}.statement th{width:14rem}`;

const badge = (status: ItemStatus, label: string) => `<span class="badge" style="background:${COLOUR[status]}">${html(label)}</span>`;
const evidenceLinks = (ids: readonly string[]) => ids.map((id) => `<a href="#${html(id)}"><code>${html(id)}</code></a>`).join(', ');

export function renderHtml(report: Report): string {
  const view = reportView(report);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${html(view.title)} (${html(report.runId)})</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${html(view.title)}</h1>
${view.notice ? `<p class="notice">${html(view.notice)}</p>\n` : ''}<p class="verdict" style="color:${report.outcome.exitCode === 0 ? COLOUR.pass : COLOUR.fail}">${html(view.verdict)}</p>
<p>${html(view.counts)}</p>
${view.fixFirst.length > 0 ? `<h2>What to fix first</h2>\n<p>Root causes first: an item that blocks others is listed with them, and fixing it unblocks them.</p>\n${view.fixFirst.map(fixSection).join('\n')}\n` : ''}<h2>Certification statement</h2>
<table class="statement">${view.statement.map(([name, value]) => `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>`).join('')}</table>
<p>statement.json holds the same, signed (statement.jws); manifest.json lists every file's sha256 and signature.jws signs it.</p>
<h2>Run</h2>
<table>${view.facts.map(([name, value]) => `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>`).join('')}</table>
<p>Check the signature, that this report was not edited, and judge its evidence again: <code>npx pos-sandbox verify-report --rejudge [--keys &lt;the deployment&rsquo;s jwks.json&gt;] &lt;this folder&gt;</code>.</p>
<h2>Items</h2>
<table><tr><th>Status</th><th>Item</th><th>§</th><th>Required</th><th>Result</th></tr>
${view.rows.map(({ item, label }) => `<tr id="${item.id}"><td>${badge(item.status, label)}</td><td><strong>${item.id}</strong> ${html(item.title)}</td><td>${html(item.section)}</td><td>${item.required ? 'yes' : 'optional'}</td><td>${html(item.message)}${item.evidence.length > 0 ? `<br><small>Evidence: ${evidenceLinks(item.evidence)}</small>` : ''}</td></tr>`).join('\n')}
</table>
<h2>Steps</h2>
<table><tr><th>Step</th><th>Time</th><th>Waits</th></tr>
${view.steps.map((step) => `<tr><td>${html(step.id)}</td><td>${step.seconds}</td><td>${html(step.waits)}</td></tr>`).join('\n')}
</table>
<h2>Evidence</h2>
<p>Each piece is a journal entry of the sandbox, redacted (tokens as header, claims and hash), stored once in report.json with its sha256, and in evidence.har. ${report.evidence.length} entries.</p>
${report.evidence.map((piece) => `<details id="${html(piece.journalId)}"><summary><code>${html(piece.journalId)}</code> ${html(summaryOf(piece.entry))} <small>sha256 <code>${piece.sha256.slice(0, 16)}…</code></small></summary><pre>${html(JSON.stringify(piece.entry, null, 2))}</pre></details>`).join('\n')}
</body>
</html>
`;
}

function fixSection({ item, label, blocks }: FixEntry): string {
  const fix = item.blockedBy
    ? `<p class="fix"><strong>Blocked by ${html(item.blockedBy)}</strong>, which is outside this run: fix it first. (${html(item.section)})</p>`
    : `<p class="fix"><strong>Fix:</strong> ${html(item.hint ?? item.remediation)} (${html(item.section)})</p>`;
  const blocked = blocks.length > 0 ? `<p><strong>Also blocks:</strong> ${blocks.map((other: ReportItem) => `<a href="#${other.id}">${other.id}</a> (${html(other.title)})`).join('; ')}</p>` : '';
  const evidence = item.evidence.length > 0 ? `<p><small>Evidence: ${evidenceLinks(item.evidence)}</small></p>` : '';
  return `<section><h3>${badge(item.status, label)} ${item.id}: ${html(item.title)}</h3>\n<p>${html(item.message)}</p>${fix}${blocked}${evidence}</section>`;
}

const summaryOf = (entry: Report['evidence'][number]['entry']) => `${entry.direction === 'outbound' ? 'to the POS' : 'from the POS'}: ${entry.method} ${entry.url ?? entry.path} → ${entry.response.status}`;
