/** Runs the items a --bug must break against the reference POS with that bug, and checks the verdicts and the report. */
import { TEST_SIGNER } from './test-signer.js';
import { expect } from '@jest/globals';
import { buildReport } from '../report/report-model.js';
import { renderMarkdown, STATUS_WORD } from '../report/render-markdown.js';
import { renderJunit } from '../report/render-junit.js';
import { rejudgeReport } from '../report/rejudge.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { CHECKLIST } from '../items/all-items.js';
import type { RunResult } from '../runner.js';
import type { Bug } from '../../reference-pos/bugs.js';
import { refusalShape, wasRefused } from '../refusals.js';
import type { BugCase } from './bug-table.js';
import { expectKnockOnsRooted, runAgainst, sandboxAndPos } from './checklist-live.js';

export async function expectBroken({ bug, with: others = [], breaks, before = [] }: BugCase): Promise<RunResult> {
  const pair = await sandboxAndPos([bug, ...others]);
  const run = await runAgainst(pair, { only: [...before, ...Object.keys(breaks)] });
  const said = (id: string) => {
    const result = run.results.find((candidate) => candidate.item.id === id)!;
    return result.blockedBy ? `${result.status} by ${result.blockedBy}` : result.status;
  };
  expect(Object.fromEntries(Object.keys(breaks).map((id) => [id, said(id)]))).toEqual(breaks);
  expectKnockOnsRooted(run);
  expectOneRootPerCause(run);
  if (![bug, ...others].some((one) => LOCATION_BUGS.has(one))) expectNoHubHint(run);

  const outcome = runOutcome(judgedItems(run.results));
  const report = buildReport(run, outcome, TEST_SIGNER);
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


/** A hint that sends a partner to the Hub's or a brand's location (a location id such as loc-hub-001-burgers is evidence, not a hint). */
export const HUB_HINT = /brand|(?<![-\w])Hub(?![-\w])/i;

/** The bugs that do put a call at the wrong location: the only ones whose report may send a partner to a brand's location. */
const LOCATION_BUGS = new Set<Bug>(['wrong-location', 'hub-first-brand']);

/** Neither a message nor the fix of a root ("What to fix first") speaks of the Hub or a brand when every location was right. */
export function expectNoHubHint(run: RunResult): void {
  const said = run.results.filter((result) => result.status !== 'pass' && result.status !== 'skipped' && result.status !== 'not_applicable');
  const hinted = said.flatMap((result) => [
    ...(HUB_HINT.test(result.message) ? [`${result.item.id} says: ${result.message}`] : []),
    ...(!result.blockedBy && HUB_HINT.test(result.item.remediation) ? [`${result.item.id}'s fix: ${result.item.remediation}`] : []),
  ]);
  expect(hinted).toEqual([]);
}

/** One cause, one root: no two roots of "What to fix first" rest on calls the sandbox refused the same way. */
export function expectOneRootPerCause(run: RunResult): void {
  const roots = run.results.filter((result) => (result.status === 'fail' || result.status === 'warn') && !result.blockedBy);
  const owner = new Map<string, string>();
  const shared: string[] = [];
  for (const root of roots) {
    for (const shape of new Set(root.evidence.filter(wasRefused).map(refusalShape))) {
      const first = owner.get(shape);
      if (first) shared.push(`${first} and ${root.item.id} both rest on ${shape}`);
      else owner.set(shape, root.item.id);
    }
  }
  expect(shared).toEqual([]);
}
