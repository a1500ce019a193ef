/**
 * /_sandbox/stress-runs: what `pos-sandbox stress` runs tell the sandbox of themselves as they go, held for the
 * dashboard's Stress page (each change a `stress` event). A run says it began with POST, then PUTs its whole view as
 * it goes; the sandbox keeps the last KEPT_RUNS in memory (a view is live, not a record: the run's report folder is).
 */
import { Router } from 'express';
import type { ValidateFunction } from 'ajv';
import { ApiError } from '../errors.js';
import { readJsonBody } from '../http/json-body.js';
import { newAjv } from '../fixtures/compiled-schemas.js';
import { FIXTURE_AJV_OPTIONS } from '../fixtures/load-fixtures.js';
import { schemaMessages } from '../http/schema-messages.js';
import { shownRun, stressRunViewSchema, type StressRun, type StressRunView } from './stress-run-view.js';
import type { ControlDeps } from '../control/control-router.js';
import { checkQuery } from '../control/control-query.js';

/** Runs kept: the dashboard shows the latest; older ones live in their report folders. */
export const KEPT_RUNS = 20;

let validator: ValidateFunction | undefined;
/** Compiled at the first run's first word, not at every start: most sandboxes never see a stress run. */
function checkView(body: { ok: boolean; value?: unknown; problem?: string } | undefined): StressRunView {
  if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
  validator ??= newAjv(FIXTURE_AJV_OPTIONS).compile(stressRunViewSchema);
  if (!validator(body.value)) throw new ApiError('INVALID_REQUEST', schemaMessages(validator.errors, 'body'));
  return body.value as StressRunView;
}

export function stressRoutes(deps: Pick<ControlDeps, 'clock' | 'events'>): Router {
  const router = Router();
  const runs = new Map<string, StressRun>();
  let numbered = 0;
  const now = () => new Date(deps.clock()).toISOString();
  const told = (run: StressRun) => {
    runs.set(run.id, run);
    // The event names the run and its counts; the page reads the view itself (a view is up to tens of KiB).
    deps.events.publish('stress', { id: run.id, state: run.state, sent: run.sent, passed: run.passed, findings: run.findings.length });
    return run;
  };
  const find = (id: string) => {
    const run = runs.get(id);
    if (run === undefined) throw new ApiError('NOT_FOUND', `no stress run '${id}'; GET /_sandbox/stress-runs lists the last ${KEPT_RUNS}`);
    return run;
  };

  router.get('/stress-runs', (req, res) => {
    checkQuery(req.query, []);
    res.json([...runs.values()].reverse().map((run) => shownRun(run, deps.clock())));
  });
  router.get('/stress-runs/:id', (req, res) => {
    checkQuery(req.query, []);
    res.json(shownRun(find(req.params.id), deps.clock()));
  });
  router.post('/stress-runs', readJsonBody, (req, res) => {
    checkQuery(req.query, []);
    const view = checkView(res.locals.body);
    const at = now();
    const run = told({ ...view, id: `stress-${++numbered}`, startedAt: at, updatedAt: at });
    for (const old of [...runs.keys()].slice(0, Math.max(0, runs.size - KEPT_RUNS))) runs.delete(old);
    res.status(201).location(`/_sandbox/stress-runs/${run.id}`).json(run);
  });
  router.put('/stress-runs/:id', readJsonBody, (req, res) => {
    checkQuery(req.query, []);
    const { id, startedAt } = find(String(req.params.id));
    const view = checkView(res.locals.body);
    res.json(told({ ...view, id, startedAt, updatedAt: now() }));
  });
  return router;
}
