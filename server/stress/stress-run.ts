/** I/O: a stress run against a running sandbox: the partner's locations and menus read, then the hunt or the rush, each failure saved as a file `orders replay` sends again. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ControlClient } from '../cli/control-client.js';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import type { OrderRecord } from '../orders/order-rules.js';
import { deliverCase, type StressCase, judgeDelivery, type Deadlines, type DeliveredOrder, type Verdict } from './delivery-verdict.js';
import type { Finding, Sending, HuntResult } from './hunt.js';
import type { RushResult } from './lunch-rush.js';

/** An order sent as any order is: the sandbox's retries, not a shrink. */
const SENT_AS_ANY: Sending = { shrinking: false, oneTry: false };

export const FAILURE_FORMAT = 'pos-sandbox/stress-failure';

/** A saved failure: what `orders replay FILE` sends again, and what a POS team copies into its own tests. */
export interface FailureFile {
  format: typeof FAILURE_FORMAT;
  formatVersion: 1;
  kind: Finding['kind'];
  /** What tells it from another failure of its kind (absent in files of the first runs: the kind alone then). */
  signature?: string;
  message: string;
  seed: number;
  /** The smallest order found that fails this way (without OrderId, RequestId and CreatedAt, which each delivery sets). */
  order: StressCase['order'];
  /** Whether it fails when delivered twice (an outbound duplicate). */
  duplicate: boolean;
}

export interface Target {
  client: ControlClient;
  locations: Location[];
  menus: Record<string, Menu>;
}

/** The partner's locations and their menus, as the sandbox holds them now. */
export async function readTarget(client: ControlClient): Promise<Target> {
  const locations = await client.call<Location[]>('GET', '/_sandbox/locations');
  const menus: Record<string, Menu> = {};
  for (const location of locations) menus[location.id] = await client.call<Menu>('GET', `/_sandbox/locations/${encodeURIComponent(location.id)}/menu`);
  return { client, locations: locations.map(({ id, kind, name, currency, timezone, hub }) => ({ id, kind, name, currency, timezone, ...(hub ? { hub } : {}) }) as Location), menus };
}

/** Sends cases and judges them against the ExternalIds the run has seen so far. */
export class CaseRunner {
  /** Every ExternalId the POS gave an order of this run, with the order. */
  readonly seen = new Map<string, string>();

  constructor(
    private readonly client: ControlClient,
    private readonly statusWindowMs: number,
    private readonly deadlines: Deadlines,
    private readonly posOrderUrl?: string,
  ) {}

  async run(testCase: StressCase, sending: Sending = SENT_AS_ANY): Promise<Verdict> {
    return (await this.send(testCase, sending)).verdict;
  }

  /** Told of every case sent, with its verdict (a live view). */
  onSent?: (sent: { testCase: StressCase; verdict: Verdict; orderId: string; decidedMs: number; shrinking: boolean }) => void;

  /** Sends and judges one case; what it answers is this case's own, however many run at once (a rush). */
  async send(testCase: StressCase, sending: Sending = SENT_AS_ANY): Promise<{ verdict: Verdict; orderId: string; decidedMs: number; record: OrderRecord }> {
    const delivered = await deliverCase(this.client, testCase, this.statusWindowMs, this.posOrderUrl, sending.oneTry ? 1 : undefined);
    // What the POS said to the first try that did not deliver it tells this failure from another of its kind.
    const refused = delivered.record.Deliveries?.find((attempt) => attempt.problem !== undefined && attempt.httpStatus !== undefined);
    if (refused !== undefined) {
      const entry = await this.client.call<{ response?: { body?: unknown } }>('GET', `/_sandbox/journal/${encodeURIComponent(refused.journalId)}`);
      delivered.answers = { [refused.journalId]: entry.response?.body };
    }
    const sent = { verdict: this.judge(delivered), orderId: delivered.record.OrderId, decidedMs: delivered.decidedMs, record: delivered.record };
    this.onSent?.({ testCase, verdict: sent.verdict, orderId: sent.orderId, decidedMs: sent.decidedMs, shrinking: sending.shrinking });
    return sent;
  }

  judge(delivered: DeliveredOrder): Verdict {
    const verdict = judgeDelivery(delivered, this.seen, this.deadlines);
    for (const attempt of delivered.record.Deliveries ?? []) if (attempt.externalId !== undefined && !this.seen.has(attempt.externalId)) this.seen.set(attempt.externalId, delivered.record.OrderId);
    return verdict;
  }
}

/** Writes each finding's smallest order as <folder>/failures/<kind>.json (the second of a kind <kind>-2.json …); answers the files. */
export async function saveFailures(folder: string, seed: number, findings: readonly Finding[]): Promise<string[]> {
  if (findings.length === 0) return [];
  await mkdir(join(folder, 'failures'), { recursive: true });
  const files: string[] = [];
  const ofKind = new Map<string, number>();
  for (const finding of findings) {
    const nth = (ofKind.get(finding.kind) ?? 0) + 1;
    ofKind.set(finding.kind, nth);
    const file = join(folder, 'failures', `${finding.kind}${nth === 1 ? '' : `-${nth}`}.json`);
    const saved: FailureFile = { format: FAILURE_FORMAT, formatVersion: 1, kind: finding.kind, signature: finding.signature, message: finding.message, seed, order: finding.minimal.order, duplicate: finding.minimal.duplicate };
    await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, 'utf8');
    files.push(file);
  }
  return files;
}

/** Pure: a stress run's report, as the checklist's: stress.json, stress.md, stress.html and junit.xml. */

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
