/** Runs the items a --bug must break against the reference POS with that bug, and checks the verdicts and the report. */
import { expect } from '@jest/globals';
import { buildReport } from '../report/report-model.js';
import { renderMarkdown, STATUS_WORD } from '../report/render-markdown.js';
import { renderJunit } from '../report/render-junit.js';
import { rejudgeReport } from '../report/rejudge.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { CHECKLIST } from '../items/all-items.js';
import type { RunResult } from '../runner.js';
import type { BugCase } from './bug-table.js';
import { runAgainst, sandboxAndPos } from './checklist-live.js';

export async function expectBroken({ bug, with: others = [], breaks, before = [] }: BugCase): Promise<RunResult> {
  const pair = await sandboxAndPos([bug, ...others]);
  const run = await runAgainst(pair, { only: [...before, ...Object.keys(breaks)] });
  const said = (id: string) => {
    const result = run.results.find((candidate) => candidate.item.id === id)!;
    return result.blockedBy ? `${result.status} by ${result.blockedBy}` : result.status;
  };
  expect(Object.fromEntries(Object.keys(breaks).map((id) => [id, said(id)]))).toEqual(breaks);
  expectKnockOnsRooted(run);

  const outcome = runOutcome(judgedItems(run.results));
  const report = buildReport(run, outcome);
  const markdown = renderMarkdown(report);
  const junit = renderJunit(report);
  for (const [id, status] of Object.entries(breaks)) {
    const item = CHECKLIST.find((candidate) => candidate.id === id)!;
    const reported = report.items.find((candidate) => candidate.id === id)!;
    expect(reported.message).not.toMatch(/undefined|\[object Object\]/);
    if (status.startsWith('blocked by ')) {
      // A knock-on is listed under its root cause, whose hint is the one to follow.
      expect(markdown).toMatch(new RegExp(`\\*\\*Also blocks:\\*\\*[^\\n]*${id} \\(`));
      continue;
    }
    // The report names the item, says what went wrong with evidence, and gives its hint.
    expect(markdown).toContain(`### ${STATUS_WORD[status as 'fail' | 'warn']} ${id}: ${item.title}`);
    expect(markdown).toContain(`**Fix:** ${item.remediation}`);
    expect(reported.evidence.length + (reported.message.length > 0 ? 1 : 0)).toBeGreaterThan(1);
    if (status === 'fail') expect(junit).toMatch(new RegExp(`name="${id} [^"]*"[^>]*>\\s*<failure type="fail"`));
  }
  // What the report says follows from its own evidence.
  expect(rejudgeReport(report)).toMatchObject({ problems: [] });
  // A failed required item fails the run, and so does a run with no required item; warnings alone do not.
  const failedRequired = Object.entries(breaks).some(([id, status]) => status !== 'warn' && CHECKLIST.find((item) => item.id === id)!.required);
  const requiredRan = run.results.some((result) => result.item.required && result.status !== 'skipped' && result.status !== 'not_applicable');
  expect(outcome.exitCode).toBe(failedRequired || !requiredRan ? 1 : 0);
  return run;
}

/** Every knock-on names a root cause that, when it ran, did not pass: a knock-on never points at a passing item. */
export function expectKnockOnsRooted(run: RunResult): void {
  const statusOf = new Map(run.results.map((result) => [result.item.id, result.status]));
  const dangling = run.results
    .filter((result) => result.blockedBy && ['pass', 'warn'].includes(statusOf.get(result.blockedBy) ?? ''))
    .map((result) => `${result.item.id} is blocked by ${result.blockedBy}, which is ${statusOf.get(result.blockedBy!)}`);
  expect(dangling).toEqual([]);
}
