/** Pure: the view a stress run tells the sandbox for the dashboard; the run judges, the sandbox holds, and the schema bounds every list and string. */

export const STRESS_RUN_STATES = ['running', 'shrinking', 'done', 'stopped'] as const;
/** How many recent orders and findings a view carries. */
export const STRESS_VIEW_LIMITS = { recent: 50, findings: 20 } as const;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const count = { type: 'integer', minimum: 0, maximum: 1e9 } as const;
const ms = { type: 'number', minimum: 0, maximum: 1e9 } as const;

export const stressRunViewSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'seed', 'state', 'planned', 'sent', 'passed', 'shrinkSends', 'findings', 'recent'],
  properties: {
    mode: { enum: ['hunt', 'rush'] },
    seed: count,
    state: { enum: [...STRESS_RUN_STATES] },
    /** Orders the run generates (a hunt's --orders; a rush's rate × duration). */
    planned: count,
    /** Generated orders sent so far (shrinks not counted), and how many of them passed. */
    sent: count,
    passed: count,
    shrinkSends: count,
    /** The line the run printed last, or its verdict once done. */
    verdict: text(500),
    reportDir: text(1000),
    findings: {
      type: 'array',
      maxItems: STRESS_VIEW_LIMITS.findings,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'message', 'items'],
        properties: { kind: text(40), message: text(2000), items: count, file: text(1000) },
      },
    },
    recent: {
      type: 'array',
      maxItems: STRESS_VIEW_LIMITS.recent,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['orderId', 'locationId', 'ok', 'decidedMs', 'shrinking'],
        properties: { orderId: text(64), locationId: text(64), ok: { type: 'boolean' }, kind: text(40), decidedMs: ms, shrinking: { type: 'boolean' } },
      },
    },
    rush: {
      type: 'object',
      additionalProperties: false,
      required: ['p50', 'p99', 'slowest', 'missed', 'failed'],
      properties: { p50: ms, p99: ms, slowest: ms, missed: count, failed: count },
    },
  },
} as const;

export interface StressRecentOrder {
  orderId: string;
  locationId: string;
  ok: boolean;
  kind?: string;
  decidedMs: number;
  shrinking: boolean;
}

export interface StressRunView {
  mode: 'hunt' | 'rush';
  seed: number;
  state: (typeof STRESS_RUN_STATES)[number];
  planned: number;
  sent: number;
  passed: number;
  shrinkSends: number;
  verdict?: string;
  reportDir?: string;
  findings: Array<{ kind: string; message: string; items: number; file?: string }>;
  recent: StressRecentOrder[];
  rush?: { p50: number; p99: number; slowest: number; missed: number; failed: number };
}

/** A view as the sandbox holds it: the run's id, when it began and when it last said something. */
export interface StressRun extends StressRunView {
  id: string;
  startedAt: string;
  updatedAt: string;
}

/** What a run that stops telling is shown as, after this long without a word: it was stopped or lost its way. */
export const STRESS_SILENT_MS = 60_000;

/** The view as shown: a run still 'running' that has said nothing for STRESS_SILENT_MS is shown 'stopped'. */
export function shownRun(run: StressRun, now: number): StressRun {
  const live = run.state === 'running' || run.state === 'shrinking';
  return live && now - Date.parse(run.updatedAt) > STRESS_SILENT_MS ? { ...run, state: 'stopped', verdict: `no word from the run for ${Math.round((now - Date.parse(run.updatedAt)) / 1000)} s: it was stopped, or lost the sandbox` } : run;
}

/** `recent` with one more order at its end, the oldest dropped past the limit. */
export function withRecent(recent: readonly StressRecentOrder[], order: StressRecentOrder): StressRecentOrder[] {
  return [...recent.slice(-(STRESS_VIEW_LIMITS.recent - 1)), order];
}
