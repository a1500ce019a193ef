/** What `pos-sandbox stress` runs tell the sandbox as they go, held in memory for the dashboard (a `stress` event each change); the run's record is its report folder. */
import type { ValidateFunction } from 'ajv';
import { ApiError } from '../errors.js';
import { newAjv } from '../fixtures/compiled-schemas.js';
import { FIXTURE_AJV_OPTIONS } from '../fixtures/load-fixtures.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlRoute } from '../http/route.js';
import { schemaMessages } from '../http/messages.js';
import { checkQuery, jsonBody } from '../control/control-query.js';
import type { SandboxEvents } from '../events/sandbox-events.js';
import { byId, controlOk, controlResponses, idParameter, json, ref } from '../openapi/openapi-parts.js';
import { shownRun, stressRunViewSchema, type StressRun, type StressRunView } from './stress-run-view.js';

/** Runs kept: the dashboard shows the latest; older ones live in their report folders. */
export const KEPT_RUNS = 20;
const NOT_FOUND = 'no run of that id among the last 20';

let validator: ValidateFunction | undefined;
/** Compiled at the first run's first word, not at every start: most sandboxes never see a stress run. */
function checkView(value: unknown): StressRunView {
  validator ??= newAjv(FIXTURE_AJV_OPTIONS).compile(stressRunViewSchema);
  if (!validator(value)) throw new ApiError('INVALID_REQUEST', schemaMessages(validator.errors, 'body'));
  return value as StressRunView;
}

type StressDeps = { clock: () => number; events: SandboxEvents };

/** The runs one sandbox was told of, shared by its four routes. */
class StressRuns {
  readonly runs = new Map<string, StressRun>();
  numbered = 0;
  constructor(private readonly deps: StressDeps) {}
  now = () => new Date(this.deps.clock()).toISOString();
  told(run: StressRun): StressRun {
    this.runs.set(run.id, run);
    // The event names the run and its counts; the page reads the view itself (a view is up to tens of KiB).
    this.deps.events.publish('stress', { id: run.id, state: run.state, sent: run.sent, passed: run.passed, findings: run.findings.length });
    return run;
  }
  find(id: string): StressRun {
    const run = this.runs.get(id);
    if (run === undefined) throw new ApiError('NOT_FOUND', `no stress run '${id}'; GET /_sandbox/stress-runs lists the last ${KEPT_RUNS}`);
    return run;
  }
}
const books = new WeakMap<SandboxEvents, StressRuns>();
const runsOf = (deps: StressDeps) => books.get(deps.events) ?? books.set(deps.events, new StressRuns(deps)).get(deps.events)!;

export const stressRunsRoute: ControlRoute<StressDeps> = {
  method: 'GET',
  path: '/_sandbox/stress-runs',
  api: 'control',
  handle: (deps) => (req, res) => {
    checkQuery(req.query, []);
    res.json([...runsOf(deps).runs.values()].reverse().map((run) => shownRun(run, deps.clock())));
  },
  doc: {
    operationId: 'stressRuns',
    summary: 'Stress runs told to this sandbox, newest first',
    description: "The last 20 runs of `pos-sandbox stress` against this sandbox, as each last told it (held in memory; a run's record is its report folder). A run still running that has said nothing for a minute is shown `stopped`.",
    responses: controlResponses({ '200': controlOk('Runs', { type: 'array', items: ref('StressRun') }) }, { invalid: 'a query parameter' }),
  },
};

export const startStressRunRoute: ControlRoute<StressDeps> = {
  method: 'POST',
  path: '/_sandbox/stress-runs',
  api: 'control',
  handle: (deps) => [
    readJsonBody,
    (req, res) => {
      checkQuery(req.query, []);
      const book = runsOf(deps);
      const view = checkView(jsonBody(res));
      const at = book.now();
      const run = book.told({ ...view, id: `stress-${++book.numbered}`, startedAt: at, updatedAt: at });
      for (const old of [...book.runs.keys()].slice(0, Math.max(0, book.runs.size - KEPT_RUNS))) book.runs.delete(old);
      res.status(201).location(`/_sandbox/stress-runs/${run.id}`).json(run);
    },
  ],
  doc: {
    operationId: 'startStressRun',
    summary: 'A stress run says it began',
    description: "`pos-sandbox stress` calls it as it begins, then PUTs its whole view as it goes: the dashboard's Stress page shows it live (each change a `stress` event). The run judges its orders; the sandbox only holds what it is told.",
    requestBody: { required: true, content: json(ref('StressRunView')) },
    responses: controlResponses(
      { '201': { ...controlOk('The run, with its id', ref('StressRun')), headers: { Location: { schema: { type: 'string' }, description: '/_sandbox/stress-runs/{id}' } } } },
      { invalid: 'a body that is not a view (each problem named)', changesState: true, readsBody: true },
    ),
  },
};

export const stressRunRoute: ControlRoute<StressDeps> = {
  method: 'GET',
  path: '/_sandbox/stress-runs/:id',
  api: 'control',
  handle: (deps) => (req, res) => {
    checkQuery(req.query, []);
    res.json(shownRun(runsOf(deps).find(String(req.params.id)), deps.clock()));
  },
  doc: byId('stressRun', 'One stress run', 'The run as it last told it.', 'The run', ref('StressRun'), NOT_FOUND, 'stress-1'),
};

export const updateStressRunRoute: ControlRoute<StressDeps> = {
  method: 'PUT',
  path: '/_sandbox/stress-runs/:id',
  api: 'control',
  handle: (deps) => [
    readJsonBody,
    (req, res) => {
      checkQuery(req.query, []);
      const book = runsOf(deps);
      const { id, startedAt } = book.find(String(req.params.id));
      const view = checkView(jsonBody(res));
      res.json(book.told({ ...view, id, startedAt, updatedAt: book.now() }));
    },
  ],
  doc: {
    operationId: 'updateStressRun',
    summary: 'A stress run says how it goes',
    description: 'The whole view again (counts, findings, the last orders sent), at most a few times a second.',
    parameters: [idParameter],
    requestBody: { required: true, content: json(ref('StressRunView')) },
    responses: controlResponses({ '200': controlOk('The run', ref('StressRun')) }, { invalid: 'a body that is not a view (each problem named)', changesState: true, readsBody: true, notFound: NOT_FOUND }),
    examples: { id: 'stress-1' },
  },
};

export const stressSchemas = {
  StressRunView: stressRunViewSchema,
  // The view with what the sandbox adds (the view's own schema admits no other field, so it is written out whole).
  StressRun: {
    ...stressRunViewSchema,
    required: [...stressRunViewSchema.required, 'id', 'startedAt', 'updatedAt'],
    properties: { ...stressRunViewSchema.properties, id: { type: 'string' }, startedAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' } },
  },
};
