/** Pure: where a POS stands on each of §9's seven steps, from the journal: done, in progress (with the calls and what to change) or not yet exercised. */
import type { JournalEntry } from '../journal/journal-entry.js';
import { companyProfileIdHeader, companyProfileIdHeaderOf, MIGRATION_STEPS, stepOf, v1BodyHabits, v1HeaderHabits, v1QueryHabits, type MigrationStep } from './v1-habits.js';
import { migrationHeaderFindings, VERSION_HEADERS, type Finding } from '../http/findings.js';
import { isCredentialParameter, queryCredentialMessage } from '../tokens/authenticate.js';

export type StepState = 'done' | 'in progress' | 'not yet exercised';

export interface MigrationStepReport {
  number: number;
  step: MigrationStep;
  state: StepState;
  /** The calls that still show a v1 habit of this step, oldest first (at most 20). */
  v1Calls: string[];
  /** How many calls show one: more than `v1Calls` lists when over 20. */
  v1CallCount: number;
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

/** A finding as the report quotes it: its code, the § it comes from, what it says. */
const findingText = (found: Finding): string => `${found.code} (${found.section}): ${found.message}`;

/** A menu update's path, and a refund's, under any mount. */
const MENU_CALL = /\/menu\/*$/i;
const REFUND_CALL = /\/order\/refund\/*$/i;

/** The step of §9 a message of the sandbox names (every v1 habit's does: v1-habits.ts, stepOf). */
const stepNamed = (message: string): MigrationStep | undefined => MIGRATION_STEPS.find((step) => message.includes(stepOf(step)));

/** Every habit a call shows, by step, though the call was refused for its first. */
function habitsOf(entry: JournalEntry): Map<MigrationStep, string> {
  const habits = new Map<MigrationStep, string>();
  const add = (step: MigrationStep | undefined, message: string) => step !== undefined && !habits.has(step) && habits.set(step, message);
  const said = [...refusals(entry), ...entry.findings.map((found) => ({ code: found.code, message: findingText(found) }))];
  for (const { code, message } of said) {
    if (code === 'ENDPOINT_RETIRED') add('adjust endpoints', message);
    if (code === 'API_KEY_HEADER_MISSING' || code === 'VERSION_HEADER_MISSING') add('update authentication', message);
    add(stepNamed(message), message);
  }
  const query = entry.tokenDefects?.find((defect) => defect.part === 'query')?.message ?? Object.keys(entry.query ?? {}).filter((name) => isCredentialParameter(name, String(entry.query[name]), '\u0000')).map(queryCredentialMessage)[0];
  if (query !== undefined) add('update authentication', query);
  // A token refused for any defect: v2's authentication is not in place yet (docs/tokens.md).
  if (entry.tokenDefects?.[0] !== undefined) add('update authentication', entry.tokenDefects[0].message);
  for (const found of migrationHeaderFindings(entry.request.headers)) add('update authentication', findingText(found));
  // What the query and headers carry, though a refusal stopped the call before the sandbox noted it.
  for (const habit of [...v1QueryHabits(entry.query ?? {}), ...v1HeaderHabits(entry.request.headers, VERSION_HEADERS, REFUND_CALL.test(entry.path))]) add(stepNamed(habit), habit);
  const header = companyProfileIdHeaderOf(entry.request.headers);
  if (header !== undefined) add('refactor payloads', companyProfileIdHeader(header));
  const body = entry.request.body;
  const inBody = typeof body === 'object' && body !== null && !Array.isArray(body) ? v1BodyHabits(body as Record<string, unknown>) : [];
  for (const habit of inBody) add(stepNamed(habit.instead), habit.instead);
  // A menu update sent where or as v1 sent it has not reached v2's menu synchronization.
  if (MENU_CALL.test(entry.path)) {
    const menuHabit = said.find(({ code }) => code === 'ENDPOINT_RETIRED')?.message ?? said.find(({ message }) => inBody.some((habit) => message.includes(habit.instead)))?.message ?? inBody[0]?.instead;
    if (menuHabit !== undefined) add('validate menu synchronization', menuHabit);
  }
  return habits;
}

/** A call to one of v2's three endpoints, under any of its mounts (§4, §4.3, §9). */
const V2_ENDPOINT = /^(\/v2|\/v1\/pos\/openapi)?\/(order\/refund|order\/status|menu)\/*$/i;

/** A v2 endpoint or a status call shows its step even when refused for another step's reason; a payload or a menu update only when taken. */
function v2Of(entry: JournalEntry, step: MigrationStep): boolean {
  const ok = entry.response.status >= 200 && entry.response.status < 300;
  const v2Call = V2_ENDPOINT.test(entry.path) && ![404, 405, 410].includes(entry.response.status);
  switch (step) {
    case 'update authentication':
      return entry.token !== undefined && entry.response.status !== 401;
    case 'adjust endpoints':
      return v2Call;
    case 'refactor payloads':
      return ok && entry.locationId !== undefined;
    case 'handle status management':
      return v2Call && /\/order\/status\/*$/i.test(entry.path);
    case 'validate menu synchronization':
      return ok && MENU_CALL.test(entry.path);
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

/** Built a call at a time, keeping only what it shows, so a long journal is read in bounded turns. */
export class MigrationTally {
  private calls = 0;
  private readonly habits = new Map<MigrationStep, { ids: string[]; count: number; first: string }>();
  private readonly shown = new Set<MigrationStep>();
  /** The first calls with any v1 habit, for step 6. */
  private readonly anyHabit: string[] = [];
  private anyHabitCount = 0;

  add(entry: JournalEntry): void {
    if (entry.direction !== 'inbound') return;
    this.calls++;
    const found = habitsOf(entry);
    for (const [step, habit] of found) {
      const kept = this.habits.get(step) ?? this.habits.set(step, { ids: [], count: 0, first: habit }).get(step)!;
      if (kept.ids.length < MAX_IDS) kept.ids.push(entry.id);
      kept.count++;
    }
    if (found.size > 0) {
      if (this.anyHabit.length < MAX_IDS) this.anyHabit.push(entry.id);
      this.anyHabitCount++;
    }
    for (const step of MIGRATION_STEPS.slice(0, 5)) if (!this.shown.has(step) && v2Of(entry, step)) this.shown.add(step);
  }

  report(reports: readonly ReportSeen[] = []): MigrationReport {
    const steps = MIGRATION_STEPS.slice(0, 5).map((step, index): MigrationStepReport => {
      const habits = this.habits.get(step);
      const seen = this.shown.has(step);
      const state: StepState = habits !== undefined ? 'in progress' : seen ? 'done' : 'not yet exercised';
      const next = habits !== undefined ? habits.first : seen ? 'nothing: no v1 habit of this step is left' : SHOWN_BY[step];
      return { number: index + 1, step, state, v1Calls: habits?.ids ?? [], v1CallCount: habits?.count ?? 0, next };
    });
    const all = steps.every((one) => one.state === 'done');
    const tested: MigrationStepReport = {
      number: 6,
      step: 'test in the sandbox',
      state: this.calls === 0 ? 'not yet exercised' : all ? 'done' : 'in progress',
      v1Calls: [...this.anyHabit],
      v1CallCount: this.anyHabitCount,
      next: all ? 'nothing: every step above is done' : this.calls === 0 ? "send your POS's calls to this sandbox" : `finish step ${steps.find((one) => one.state !== 'done')!.number} above`,
    };
    return { calls: this.calls, steps: [...steps, tested, certifyStep(reports)] };
  }
}

/** Step 7 from the reports: done once a certification passed, in progress while none did; a demo or practice run does not count. */
function certifyStep(reports: readonly ReportSeen[]): MigrationStepReport {
  const attempts = reports.filter((report) => !/not a certification/i.test(report.title));
  const passed = attempts.find((report) => report.verdict === 'passed');
  const base = { number: 7, step: 'certify and go live' as const, v1Calls: [], v1CallCount: 0 };
  if (passed !== undefined) return { ...base, state: 'done', next: `attach the passed report ('${passed.title}') to the certification request` };
  if (attempts.length > 0) return { ...base, state: 'in progress', next: `no certification run passed yet (the latest: '${attempts[0]!.title}', ${attempts[0]!.verdict}); fix what its report says first and run it again` };
  const others = reports.length > 0 ? ` (the ${reports.length} report(s) written so far are demo or practice runs)` : '';
  return { ...base, state: 'not yet exercised', next: `${SHOWN_BY['certify and go live']}${others}` };
}

/** The report over the POS's calls (inbound entries, oldest first) and the reports written. */
export function migrationReport(entries: readonly JournalEntry[], reports: readonly ReportSeen[] = []): MigrationStepReport[] {
  const tally = new MigrationTally();
  for (const entry of entries) tally.add(entry);
  return tally.report(reports).steps;
}
