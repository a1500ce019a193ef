/**
 * /_sandbox/checklist/runs: start a checklist run in driver mode (a POS test build, or the bundled reference POS),
 * follow it (GET, or `checklist` events), and /_sandbox/reports: the report folders written so far, each report.html.
 */
import { Router } from 'express';
import { heldSecretMessage } from '../../certification-checklist/report-fields.js';
import { holdsSecret } from './secret-routes.js';
import { ApiError } from '../errors.js';
import { checkChecklistRunRequest } from '../domain/checklist-run-request.js';
import { ChecklistRunRefused } from '../processing/checklist-runs.js';
import { readJsonBody } from '../pipeline/json-body.js';
import { egressProblem } from '../egress/egress-fetch.js';
import type { ControlDeps } from './control-router.js';
import { checkQuery } from './control-query.js';

/** The report is the sandbox's own HTML, self-contained: inline style only, nothing loaded, never framed. */
const REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function checklistRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { checklist } = deps;

  router.get('/checklist/runs', (req, res) => {
    checkQuery(req.query, []);
    res.json(checklist.list());
  });

  router.post('/checklist/runs', readJsonBody, async (_req, res) => {
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
    const { CHECKLIST } = await import('../../certification-checklist/items/all-items.js');
    const check = checkChecklistRunRequest(body.value, CHECKLIST.map((item) => item.id));
    if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
    // A report is shared: no field it prints may hold the partner's key or a token, in any form the redaction finds.
    const { pos } = check.request;
    const keyed = ([['posName', pos?.name], ['posVersion', pos?.version], ['posBuild', pos?.build], ...('url' in check.request.driver ? [['driverUrl', check.request.driver.url], ['posOrderUrl', check.request.driver.posOrderUrl]] : [])] as Array<[string, string | undefined]>).filter(
      ([, value]) => value !== undefined && holdsSecret(deps.journal.redactor, value),
    );
    if (keyed.length > 0) throw new ApiError('INVALID_REQUEST', keyed.map(([field]) => heldSecretMessage(field)));
    const driver = check.request.driver;
    if (!('referencePos' in driver)) {
      const refused = (await Promise.all([egressProblem(deps.egress, driver.url, 'driverUrl'), driver.posOrderUrl === undefined ? undefined : egressProblem(deps.egress, driver.posOrderUrl, 'posOrderUrl')])).filter(
        (problem): problem is string => problem !== undefined,
      );
      if (refused.length > 0) throw new ApiError('INVALID_REQUEST', refused);
    }
    try {
      const run = await checklist.start(check.request);
      res.location(`/_sandbox/checklist/runs/${run.id}`).status(202).json(run);
    } catch (error) {
      if (!(error instanceof ChecklistRunRefused)) throw error;
      throw new ApiError('INVALID_STATE', error.message);
    }
  });

  router.get('/checklist/runs/:id', (req, res) => {
    const run = checklist.get(req.params.id);
    if (!run) throw new ApiError('NOT_FOUND', `no checklist run '${req.params.id}' in this sandbox process; GET /_sandbox/checklist/runs lists them, GET /_sandbox/reports the reports written`);
    res.json(run);
  });

  router.get('/reports', async (req, res) => {
    checkQuery(req.query, []);
    res.json(await checklist.reports());
  });

  router.get('/reports/:id/report.html', async (req, res) => {
    const html = await checklist.reportHtml(req.params.id);
    if (html === undefined) throw new ApiError('NOT_FOUND', `no report '${req.params.id}' in ${checklist.options.reportDir}; GET /_sandbox/reports lists them`);
    res.set({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REPORT_POLICY, 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' }).send(html);
  });

  return router;
}
