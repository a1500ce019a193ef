/**
 * Pure: a stress run's report, as the checklist's are: stress.json (canonical), stress.md, stress.html (one
 * self-contained page) and junit.xml (one case per kind of failure hunted, or per deadline in a rush).
 */
import type { HuntResult } from './hunt.js';
import type { RushResult } from './lunch-rush.js';
import type { Deadlines } from './delivery-verdict.js';

export interface StressReport {
  format: 'pos-sandbox/stress-report';
  formatVersion: 1;
  runId: string;
  mode: 'hunt' | 'rush';
  seed: number;
  sandbox: { url: string; version: string };
  startedAt: string;
  finishedAt: string;
  deadlines: Deadlines;
  /** How to run it again, exactly. */
  reproduce: string;
  hunt?: HuntResult & { files: string[] };
  rush?: Omit<RushResult, 'orders'>;
}

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xml = (text: string) =>
  html(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
const ms = (value: number) => `${Math.round(value)} ms`;

/** The report's lines for people: the same in stress.md and stress.html. */
export function reportLines(report: StressReport): { title: string; verdict: string; facts: Array<[string, string]>; rows: Array<[string, string, string]> } {
  const facts: Array<[string, string]> = [
    ['Sandbox', `${report.sandbox.version} at ${report.sandbox.url}`],
    ['Seed', String(report.seed)],
    ['Started / finished', `${report.startedAt} / ${report.finishedAt}`],
    ['Deadlines', `a kiosk order decided within ${report.deadlines.kioskMs} ms, any other within ${report.deadlines.deliveryMs} ms`],
    ['Run it again', report.reproduce],
  ];
  if (report.hunt) {
    const { hunt } = report;
    facts.push(['Orders', `${hunt.generated} generated, ${hunt.passed} passed; ${hunt.sentWhileShrinking} more sent while shrinking`]);
    const verdict = hunt.findings.length === 0 ? `NOTHING FOUND: the POS took all ${hunt.generated} orders as it should.` : `FOUND ${hunt.findings.length} failure${hunt.findings.length === 1 ? '' : 's'} in ${hunt.generated} orders.`;
    // Two failures of one kind (two bugs answering 500) are 5xx and 5xx-2, as their files are named.
    const nth = (at: number) => hunt.findings.slice(0, at + 1).filter((one) => one.kind === hunt.findings[at]!.kind).length;
    const rows = hunt.findings.map((finding, at): [string, string, string] => [nth(at) === 1 ? finding.kind : `${finding.kind}-${nth(at)}`, `${finding.message} (first at order ${finding.atOrder}; the smallest order has ${finding.minimal.order.Items.length} item(s))`, hunt.files[at] ?? '']);
    return { title: `Stress run ${report.runId}: the hunt`, verdict, facts, rows };
  }
  const rush = report.rush!;
  facts.push(['Rush', `${rush.ratePerSecond} orders/s for ${rush.durationS} s: ${rush.sent} sent`], ['Decision times', `p50 ${ms(rush.p50)}, p99 ${ms(rush.p99)}, slowest ${ms(rush.slowest)}`]);
  const verdict = rush.missed.length === 0 && rush.failed.length === 0 ? `EVERY ORDER DECIDED IN TIME: ${rush.sent} orders.` : `${rush.missed.length} ORDER(S) MISSED THE DEADLINE, ${rush.failed.length} FAILED, of ${rush.sent}.`;
  const rows = [
    ...rush.missed.map((order): [string, string, string] => ['slow', `${order.orderId} at ${order.locationId}${order.kiosk ? ' (kiosk)' : ''}, ${order.items} item(s): decided in ${ms(order.decidedMs)}`, '']),
    ...rush.failed.map((order): [string, string, string] => [order.verdict.ok ? '' : order.verdict.kind, `${order.orderId} at ${order.locationId}: ${order.verdict.ok ? '' : order.verdict.message}`, '']),
  ];
  return { title: `Stress run ${report.runId}: the lunch rush`, verdict, facts, rows };
}

export function renderStressReport(report: StressReport): Record<'stress.json' | 'stress.md' | 'stress.html' | 'junit.xml', string> {
  const view = reportLines(report);
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const markdown = [
    `# ${view.title}`,
    '',
    `**${view.verdict}**`,
    '',
    '| | |',
    '|---|---|',
    ...view.facts.map(([name, value]) => `| ${name} | ${cell(value)} |`),
    '',
    ...(view.rows.length > 0 ? ['| kind | what | saved order |', '|---|---|---|', ...view.rows.map(([kind, what, file]) => `| ${kind} | ${cell(what)} | ${cell(file)} |`), ''] : []),
    ...(report.hunt && report.hunt.files.length > 0 ? ['Send a saved order again: `npx pos-sandbox orders replay <file>`.', ''] : []),
  ].join('\n');
  const page = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${html(view.title)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}.verdict{font-weight:700;font-size:1.2rem}</style>
</head>
<body>
<h1>${html(view.title)}</h1>
<p class="verdict">${html(view.verdict)}</p>
<table>${view.facts.map(([name, value]) => `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>`).join('')}</table>
${view.rows.length > 0 ? `<table><tr><th>Kind</th><th>What</th><th>Saved order</th></tr>${view.rows.map(([kind, what, file]) => `<tr><td>${html(kind)}</td><td>${html(what)}</td><td><code>${html(file)}</code></td></tr>`).join('')}</table>` : ''}
</body>
</html>
`;
  const cases = view.rows.length === 0 ? [`    <testcase classname="pos-sandbox.stress" name="${xml(view.verdict)}"/>`] : view.rows.map(([kind, what]) => `    <testcase classname="pos-sandbox.stress" name="${xml(kind)}"><failure type="${xml(kind)}" message="${xml(what)}">${xml(what)}</failure></testcase>`);
  const junit = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xml(view.title)}" tests="${cases.length}" failures="${view.rows.length}">`, `  <testsuite name="stress" tests="${cases.length}" failures="${view.rows.length}" timestamp="${report.startedAt}">`, ...cases, '  </testsuite>', '</testsuites>', ''].join('\n');
  return { 'stress.json': `${JSON.stringify(report, null, 2)}\n`, 'stress.md': markdown, 'stress.html': page, 'junit.xml': junit };
}
