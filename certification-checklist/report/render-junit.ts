/** Pure: junit.xml, one test case per item and one suite per category, for a CI system to show. */
import { CATEGORIES } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';
import { signerWords } from './render-statement.js';
import { fixFirst } from './report-view.js';

/** XML text: the five specials escaped, and the control characters XML 1.0 has no place for (all but tab and line breaks) dropped. */
const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function renderJunit(report: Report): string {
  // What to fix first comes first: the suites holding roots, and each suite's roots first.
  const fix = fixFirst(report.items);
  const rank = (item: ReportItem) => {
    const at = fix.findIndex((entry) => entry.item === item);
    return at === -1 ? fix.length : at;
  };
  const suites = CATEGORIES.map((category) => report.items.filter((item) => item.category === category))
    .filter((items) => items.length > 0)
    .map((items) => items.map((item, index) => ({ item, index })).sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index).map(({ item }) => item))
    .map((items, index) => ({ items, index }))
    .sort((a, b) => rank(a.items[0]!) - rank(b.items[0]!) || a.index - b.index)
    .map(({ items }) => items);
  const byId = new Map(report.items.map((item) => [item.id, item]));
  const total = (items: ReportItem[], ...statuses: string[]) => items.filter((item) => statuses.includes(item.status)).length;
  const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(report.title)} (${xml(report.runId)})" tests="${report.items.length}" failures="${total(report.items, 'fail')}" errors="${total(report.items, 'blocked', 'error')}" skipped="${total(report.items, 'skipped', 'not_applicable')}" time="${seconds(report.durationMs)}">`,
  ];
  for (const items of suites) {
    const category = items[0]!.category;
    lines.push(
      `  <testsuite name="${category}" tests="${items.length}" failures="${total(items, 'fail')}" errors="${total(items, 'blocked', 'error')}" skipped="${total(items, 'skipped', 'not_applicable')}" timestamp="${report.startedAt}">`,
    );
    lines.push('    <properties>', `      <property name="signed-by" value="${xml(signerWords(report.signer).who)}"/>`, `      <property name="signature-proves" value="${xml(signerWords(report.signer).proves)}"/>`, `      <property name="report-sha256" value="${xml(report.digest?.value ?? '')}"/>`, '    </properties>');
    for (const item of items) lines.push(...testCase(item, seconds(item.durationMs), byId));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function testCase(item: ReportItem, time: string, byId: ReadonlyMap<string, ReportItem>): string[] {
  const open = `    <testcase classname="pos-sandbox.${item.category}" name="${xml(`${item.id} ${item.title}${item.required ? '' : ' (optional)'}`)}" time="${time}"`;
  const root = item.blockedBy ? rootOf(item, byId) : undefined;
  const fix = item.blockedBy ? `Blocked by ${item.blockedBy}: fix ${root!.id === item.blockedBy ? 'that' : root!.id} first${root!.id === item.id ? '' : ` (${root!.message})`}` : `Fix: ${item.hint ?? item.remediation} (${item.section})`;
  const hint = xml(`${item.message}\n${fix}\nEvidence: ${item.evidence.join(', ') || 'none'}`);
  switch (item.status) {
    case 'pass':
      return [`${open}/>`];
    case 'warn':
      return [`${open}>`, `      <system-out>WARN: ${hint}</system-out>`, '    </testcase>'];
    case 'fail':
      return [`${open}>`, `      <failure type="fail" message="${xml(item.message)}">${hint}</failure>`, '    </testcase>'];
    case 'blocked':
    case 'error':
      return [`${open}>`, `      <error type="${item.status}" message="${xml(`${item.blockedBy ? `blocked by ${item.blockedBy}: ` : ''}${item.message}`)}">${hint}</error>`, '    </testcase>'];
    default:
      return [`${open}>`, `      <skipped message="${xml(`${item.status}: ${item.message}`)}"/>`, '    </testcase>'];
  }
}

/** The item at the root of a knock-on's chain, as far as the report holds it. */
function rootOf(item: ReportItem, byId: ReadonlyMap<string, ReportItem>): ReportItem {
  const seen = new Set<string>();
  let at = item;
  while (at.blockedBy && byId.has(at.blockedBy) && !seen.has(at.id)) {
    seen.add(at.id);
    at = byId.get(at.blockedBy)!;
  }
  return at;
}
