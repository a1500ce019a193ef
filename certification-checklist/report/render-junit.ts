/** Pure: junit.xml, one test case per item and one suite per category, for a CI system to show. */
import { CATEGORIES } from '../checklist-types.js';
import type { Report, ReportItem } from './report-model.js';
import { signerWords } from './render-statement.js';

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
  const suites = CATEGORIES.map((category) => report.items.filter((item) => item.category === category)).filter((items) => items.length > 0);
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
    for (const item of items) lines.push(...testCase(item, seconds(item.durationMs)));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function testCase(item: ReportItem, time: string): string[] {
  const open = `    <testcase classname="pos-sandbox.${item.category}" name="${xml(`${item.id} ${item.title}${item.required ? '' : ' (optional)'}`)}" time="${time}"`;
  const fix = item.blockedBy ? `Blocked by ${item.blockedBy}: fix that first` : `Fix: ${item.remediation} (${item.section})`;
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
