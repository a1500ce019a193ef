/**
 * Every pass backed by the traffic: a whole run against the correct reference POS is recorded once, then its steps are
 * judged again with the faults the checklist injected made to miss, and with its entries bent at random. No item
 * passes on an exchange its journal entries do not show.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { closeServers } from '../../server/test/live.js';
import type { ChecklistItem, Verdict } from '../checklist-types.js';
import type { RunResult, StepRecord } from '../runner.js';
import { runAgainst, sandboxAndPos } from '../test/checklist-live.js';
import { trafficOf } from '../traffic.js';
import { CHECKLIST } from './all-items.js';

let run: RunResult;
beforeAll(async () => {
  run = await runAgainst(await sandboxAndPos());
}, 30_000);
afterAll(closeServers);

const itemOf = (id: string): ChecklistItem => CHECKLIST.find((item) => item.id === id)!;
const stepOf = (item: ChecklistItem): StepRecord => run.steps.find((step) => step.id === item.step)!;
const judge = (item: ChecklistItem, entries: JournalEntry[]): Verdict => item.judge(trafficOf({ ...stepOf(item), entries }));

/** The entry as the sandbox would have answered it had no fault rule fired: taken, with nothing injected. */
function missed(entry: JournalEntry): JournalEntry {
  if (entry.fault === undefined) return entry;
  const taken: JournalEntry = { ...entry, response: { status: 200, headers: {}, ...(entry.direction === 'outbound' ? { body: { ExternalId: 'REF-MISSED' } } : {}) } };
  delete taken.fault;
  if (entry.delivery) taken.delivery = { dispatch: entry.delivery.dispatch, attempt: entry.delivery.attempt, of: entry.delivery.of, verdict: entry.delivery.verdict };
  return taken;
}

/** The items whose step injects a fault the POS must meet, and what the fault does. */
const FAULT_ITEMS = [
  ['REFUND-02', 'a 400 INVALID_PAYLOAD answered to the refund'],
  ['REFUND-03', 'the outage (503) the first refund meets'],
  ['REFUND-06', 'the outage (503) the first refund meets'],
  ['MENU-06', 'a VALIDATION_ERROR answered to the menu update'],
  ['AUTH-10', 'a delivery with a token of a bad signature'],
  ['AUTH-11', 'a delivery with an expired token'],
  ['AUTH-12', 'a delivery with a token for another audience'],
  ['ORDER-05', 'a delivery sent twice at once'],
] as const;

describe('an item whose step injects a fault', () => {
  it('passes against the correct POS, on an entry the fault acted on', () => {
    for (const [id] of FAULT_ITEMS) {
      const result = run.results.find((candidate) => candidate.item.id === id)!;
      expect({ id, status: result.status }).toEqual({ id, status: 'pass' });
      expect({ id, faulted: result.evidence.some((entry) => entry.fault !== undefined) }).toEqual({ id, faulted: true });
    }
  });

  it.each(FAULT_ITEMS)('%s is blocked, never passed, when %s never happened', (id, _fault) => {
    const item = itemOf(id);
    const verdict = judge(item, stepOf(item).entries.map(missed));
    expect({ status: verdict.status, message: verdict.message }).toEqual({ status: 'blocked', message: expect.any(String) });
  });
});

/** `met a 503 (j-000012)`, `refused 401 … (j-000012)`: a status the message says an exchange was answered with. */
const CLAIMS = [/met (?:a|the injected) (\d{3})[^(]*\((j-\d{6})\)/g, /\((j-\d{6})\), refused (\d{3})/g];

/** What a verdict's message and evidence say that its entries must show; the problems found. */
function unbacked(verdict: Verdict, entries: readonly JournalEntry[], item: ChecklistItem): string[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const problems: string[] = [];
  for (const id of verdict.evidence) if (!byId.has(id)) problems.push(`${item.id} cites ${id}, which is not in its traffic`);
  for (const id of verdict.message.match(/j-\d{6}/g) ?? []) if (!byId.has(id)) problems.push(`${item.id} names ${id}, which is not in its traffic`);
  for (const [index, pattern] of CLAIMS.entries()) {
    for (const match of verdict.message.matchAll(pattern)) {
      const [status, id] = index === 0 ? [match[1], match[2]] : [match[2], match[1]];
      const entry = byId.get(id!);
      if (entry && String(entry.response.status) !== status) problems.push(`${item.id} says ${id} was answered ${status}; it was answered ${entry.response.status}`);
      if (entry && index === 0 && entry.fault === undefined) problems.push(`${item.id} says ${id} met an injected ${status}; no fault rule acted on it`);
    }
  }
  const faulted = FAULT_ITEMS.some(([id]) => id === item.id);
  if (verdict.status === 'pass' && faulted && !verdict.evidence.some((id) => byId.get(id)?.fault !== undefined)) problems.push(`${item.id} passes on no entry the fault acted on`);
  return problems;
}

/** One entry bent the way traffic the item did not expect would be: gone, unfaulted, or answered otherwise. */
const bend = fc.oneof(
  fc.constant((entry: JournalEntry): JournalEntry | undefined => entry),
  fc.constant((): JournalEntry | undefined => undefined),
  fc.constant((entry: JournalEntry): JournalEntry | undefined => missed(entry)),
  fc.constantFrom(0, 200, 400, 401, 409, 503).map((status) => (entry: JournalEntry): JournalEntry | undefined => ({ ...entry, response: { ...entry.response, status } })),
);

describe('every verdict over bent traffic', () => {
  it.each(CHECKLIST.filter((item) => item.step !== undefined).map((item) => [item.id, item] as const))('%s: never a crash, and every exchange it names shows what it says', (_id, item) => {
    const step = stepOf(item);
    if (!step) return;
    fc.assert(
      fc.property(fc.array(bend, { minLength: step.entries.length, maxLength: step.entries.length }), (bends) => {
        const entries = step.entries.map((entry, i) => bends[i]!(entry)).filter((entry): entry is JournalEntry => entry !== undefined);
        const verdict = judge(item, entries);
        expect(unbacked(verdict, entries, item)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
