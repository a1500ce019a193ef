/** Runs the items a --bug must break against the reference POS with that bug, and checks the verdicts and the report. */
import { expect } from '@jest/globals';
import { buildReport } from '../report/report-model.js';
import { renderMarkdown, STATUS_WORD } from '../report/render-markdown.js';
import { renderJunit } from '../report/render-junit.js';
import { runOutcome } from '../run-outcome.js';
import { CHECKLIST } from '../items/all-items.js';
import type { BugCase } from './bug-table.js';
import { runAgainst, sandboxAndPos } from './checklist-live.js';

export async function expectBroken({ bug, breaks, before = [] }: BugCase): Promise<void> {
  const pair = await sandboxAndPos([bug]);
  const run = await runAgainst(pair, { only: [...before, ...Object.keys(breaks)] });
  const got = Object.fromEntries(Object.keys(breaks).map((id) => [id, run.statusOf(id)]));
  expect(got).toEqual(breaks);

  const outcome = runOutcome(run.results.map((result) => ({ id: result.item.id, required: result.item.required, status: result.status, message: result.message })));
  const report = buildReport(run, outcome);
  const markdown = renderMarkdown(report);
  const junit = renderJunit(report);
  for (const [id, status] of Object.entries(breaks)) {
    const item = CHECKLIST.find((candidate) => candidate.id === id)!;
    // The report names the item, says what went wrong with evidence, and gives its hint.
    expect(markdown).toContain(`### ${STATUS_WORD[status]} ${id}: ${item.title}`);
    expect(markdown).toContain(`**Fix:** ${item.remediation}`);
    const reported = report.items.find((candidate) => candidate.id === id)!;
    expect(reported.evidence.length + (reported.message.length > 0 ? 1 : 0)).toBeGreaterThan(1);
    if (status === 'fail') expect(junit).toMatch(new RegExp(`name="${id} [^"]*"[^>]*>\\s*<failure type="fail"`));
  }
  // A failed required item fails the run, and so does a run with no required item; warnings alone do not.
  const failedRequired = Object.entries(breaks).some(([id, status]) => status === 'fail' && CHECKLIST.find((item) => item.id === id)!.required);
  const requiredRan = run.results.some((result) => result.item.required && result.status !== 'skipped' && result.status !== 'not_applicable');
  expect(outcome.exitCode).toBe(failedRequired || !requiredRan ? 1 : 0);
}
