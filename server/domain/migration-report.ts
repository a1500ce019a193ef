/**
 * Pure: where a POS stands on §9's migration, from the journal. Each of the seven steps, in §9's order, is `done`
 * (v2 traffic of its kind seen, no v1 habit left), `in progress` (a v1 habit seen, with the journal ids of those
 * calls, and what to change first) or `not yet exercised`. `pos-sandbox migration` prints it; docs/migrating-from-v1.md
 * explains it.
 */
import type { JournalEntry } from '../journal/journal-entry.js';
import { MIGRATION_STEPS, stepOf, type MigrationStep } from './v1-habits.js';

export type StepState = 'done' | 'in progress' | 'not yet exercised';

export interface MigrationStepReport {
  number: number;
  step: MigrationStep;
  state: StepState;
  /** The calls that still show a v1 habit of this step, oldest first (at most 20). */
  v1Calls: string[];
  /** What to do next: the first v1 habit's own words, or what traffic would show the step done. */
  next: string;
}

/** What GET /_sandbox/migration answers: how many calls of the POS the journal held, and the seven steps. */
export interface MigrationReport {
  calls: number;
  steps: MigrationStepReport[];
}

/** A report already written: its verdict and title say whether it was a passed certification. */
export interface ReportSeen {
  verdict: string;
  title: string;
}

const MAX_IDS = 20;

/** The messages of a call the sandbox refused (either envelope), with their codes. */
function refusals(entry: JournalEntry): Array<{ code: string; message: string }> {
  const errors = (entry.response.body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.map((error: Record<string, unknown>) => ({ code: String(error.code ?? error.Code ?? ''), message: String(error.message ?? error.Message ?? '') })) : [];
}

/**
 * The v1 habit a call shows for `step`, in the sandbox's words; undefined when it shows none. Every v1 habit's
 * message names its step of §9 (v1-habits.ts, stepOf); the first step's habits are findings of their own, and a
 * retired endpoint is step 2 whatever else its message names.
 */
function habitOf(entry: JournalEntry, step: MigrationStep): string | undefined {
  const said = [...entry.findings.map((found) => ({ code: found.code, message: `${found.code}: ${found.message}` })), ...refusals(entry)];
  const naming = (one: MigrationStep) => said.find((text) => text.message.includes(stepOf(one)))?.message;
  switch (step) {
    case 'update authentication': {
      const query = entry.tokenDefects?.find((defect) => defect.part === 'query');
      return query?.message ?? said.find((text) => text.code === 'API_KEY_HEADER_MISSING' || text.code === 'VERSION_HEADER_MISSING')?.message;
    }
    case 'adjust endpoints':
      return said.find((text) => text.code === 'ENDPOINT_RETIRED')?.message;
    case 'validate menu synchronization':
      // A menu update refused for a v1 habit, whichever step the habit belongs to.
      return /\/menu\/*$/i.test(entry.path) && entry.response.status >= 400 ? refusals(entry).find((text) => text.code === 'ENDPOINT_RETIRED' || text.message.includes("of §9's migration"))?.message : undefined;
    default:
      return naming(step);
  }
}

/** Whether a call is v2 traffic of the step's kind, answered as v2 answers it. */
function v2Of(entry: JournalEntry, step: MigrationStep): boolean {
  const ok = entry.response.status >= 200 && entry.response.status < 300;
  switch (step) {
    case 'update authentication':
      return entry.token !== undefined && entry.response.status !== 401;
    case 'adjust endpoints':
      return ok;
    case 'refactor payloads':
      return ok && entry.locationId !== undefined;
    case 'handle status management':
      return ok && entry.path.endsWith('/order/status');
    case 'validate menu synchronization':
      return ok && entry.path.endsWith('/menu');
    default:
      return false;
  }
}

/** What shows a step done when nothing of it was seen yet. */
const SHOWN_BY: Record<MigrationStep, string> = {
  'update authentication': 'send any call with a v2 token (§5), x-api-key and a version header',
  'adjust endpoints': 'call a v2 endpoint (/v2/order/refund, /v2/order/status, /v2/menu)',
  'refactor payloads': 'send a call naming its location in x-service-locationid, with a v2 body',
  'handle status management': 'decide an order the sandbox sent with POST /v2/order/status',
  'validate menu synchronization': 'send a partial menu update (PUT /v2/menu) the sandbox accepts',
  'test in the sandbox': 'finish the steps above',
  'certify and go live': 'run the checklist with --pos-version against your POS (pos-sandbox checklist, or certify in CI)',
};

/** The report over the POS's calls (inbound entries) and the reports written. */
export function migrationReport(entries: readonly JournalEntry[], reports: readonly ReportSeen[] = []): MigrationStepReport[] {
  const calls = entries.filter((entry) => entry.direction === 'inbound');
  const steps = MIGRATION_STEPS.slice(0, 5).map((step, index): MigrationStepReport => {
    const habits = calls.flatMap((entry) => {
      const habit = habitOf(entry, step);
      return habit === undefined ? [] : [{ id: entry.id, habit }];
    });
    const seen = calls.some((entry) => v2Of(entry, step));
    const state: StepState = habits.length > 0 ? 'in progress' : seen ? 'done' : 'not yet exercised';
    const next = habits.length > 0 ? habits[0]!.habit : seen ? 'nothing: no v1 habit of this step is left' : SHOWN_BY[step];
    return { number: index + 1, step, state, v1Calls: habits.slice(0, MAX_IDS).map((habit) => habit.id), next };
  });
  const all = steps.every((one) => one.state === 'done');
  const tested: MigrationStepReport = {
    number: 6,
    step: 'test in the sandbox',
    state: calls.length === 0 ? 'not yet exercised' : all ? 'done' : 'in progress',
    v1Calls: [...new Set(steps.flatMap((one) => one.v1Calls))].slice(0, MAX_IDS),
    next: all ? 'nothing: every step above is done' : calls.length === 0 ? 'send your POS\'s calls to this sandbox' : `finish step ${steps.find((one) => one.state !== 'done')!.number} above`,
  };
  const certified = reports.some((report) => report.verdict === 'passed' && !/not a certification/i.test(report.title));
  const certify: MigrationStepReport = {
    number: 7,
    step: 'certify and go live',
    state: certified ? 'done' : reports.length > 0 ? 'in progress' : 'not yet exercised',
    v1Calls: [],
    next: certified ? 'attach the passed report to the certification request' : SHOWN_BY['certify and go live'],
  };
  return [...steps, tested, certify];
}
