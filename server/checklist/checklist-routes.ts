/**
 * /_sandbox/checklist/runs: start a checklist run in driver mode (a POS test build, or the bundled reference POS),
 * follow it (GET, or `checklist` events), and /_sandbox/reports: the report folders written so far, each report.html.
 */
import { Router } from 'express';
import { heldSecretMessage } from '../../certification-checklist/report-fields.js';
import { holdsSecret } from '../journal/secret-routes.js';
import { ApiError } from '../errors.js';
import { checkChecklistRunRequest } from './checklist-run-request.js';
import { ChecklistRunRefused } from './checklist-runs.js';
import { readJsonBody } from '../http/json-body.js';
import { egressProblem } from '../hosted/egress-fetch.js';
import type { ControlDeps } from '../control/control-router.js';
import { checkQuery } from '../control/control-query.js';
import { FOLDER_FILES } from '../../certification-checklist/report/write-report.js';

/** The report is the sandbox's own HTML, self-contained: inline style only, nothing loaded, never framed. */
const REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What each file of a report folder is served as; the signatures are JWS compact serializations (RFC 7515 §9.2). */
const FILE_TYPES: Partial<Record<string, string>> = Object.fromEntries(
  FOLDER_FILES.map((file) => [file, file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.md') ? 'text/markdown; charset=utf-8' : file.endsWith('.xml') ? 'application/xml; charset=utf-8' : file.endsWith('.jws') ? 'application/jose' : 'application/json; charset=utf-8']),
);

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

  // Every file of a report folder, so a partner of a hosted sandbox takes the signed folder home (`pos-sandbox reports get`).
  router.get('/reports/:id/:file', async (req, res) => {
    checkQuery(req.query, []);
    const { id, file } = req.params;
    const type = FILE_TYPES[file];
    if (type === undefined) throw new ApiError('NOT_FOUND', `a report folder has no file '${file}': it holds ${FOLDER_FILES.join(', ')}`);
    const text = await checklist.reportFile(id, file);
    // The folder is not named: on a hosted sandbox, a partner sees nothing of the host.
    if (text === undefined) throw new ApiError('NOT_FOUND', `no report '${id}' with ${file} in this sandbox's report folder; GET /_sandbox/reports lists them`);
    res.set({ 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    if (file === 'report.html') res.set({ 'content-security-policy': REPORT_POLICY, 'x-frame-options': 'DENY' });
    else res.set('content-disposition', `attachment; filename="${file}"`);
    res.send(text);
  });

  return router;
}
