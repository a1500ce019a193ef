/**
 * /_sandbox/fault-scripts: the ready scripts of fixtures/faults/.
 * /_sandbox/faults: the fault rules in force, newest first, with what each has left; add one rule or
 * a list (the list keeps its order, in front of the rules already there); remove one or all.
 */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { checkFaultRules } from './check-fault-rules.js';
import { DuplicateFaultIdError } from './fault-registry.js';
import { loadReadyScripts } from './load-fault-file.js';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

const READY_SCRIPTS = join(PACKAGE_ROOT, 'fixtures', 'faults');
import { readJsonBody } from '../http/json-body.js';
import type { ControlDeps } from '../control/control-router.js';
import { checkQuery, pageLimit, unknownCursor } from '../control/control-query.js';
import { pageAfter, RECORD_PAGE } from '../control/paging.js';
import { sendPage } from '../control/page-response.js';

export function faultRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { faults } = deps;
  const notFound = (id: string) => new ApiError('NOT_FOUND', `no fault rule '${id}' in force (a rule used up expires); GET /_sandbox/faults lists them`);

  // The ready scripts of fixtures/faults/, to add as they are (the dashboard's Faults page offers them).
  router.get('/fault-scripts', (req, res) => {
    checkQuery(req.query, []);
    res.json(loadReadyScripts(READY_SCRIPTS));
  });

  router.get('/faults', (req, res) => {
    const { limit, after } = checkQuery(req.query, ['limit', 'after']);
    const page = pageAfter(faults.list(), (rule) => rule.id, () => true, pageLimit(limit, RECORD_PAGE), after);
    if (!page) throw unknownCursor('fault rules in force', after!);
    sendPage(req, res, page, 'after');
  });

  router.get('/faults/:id', (req, res) => {
    const rule = faults.get(req.params.id);
    if (!rule) throw notFound(req.params.id);
    res.json(rule);
  });

  router.post('/faults', readJsonBody, async (_req, res) => {
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing; send one fault rule or a list of them');
    const check = checkFaultRules(body.value);
    if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
    let added;
    try {
      added = await faults.add(check.rules);
    } catch (error) {
      if (!(error instanceof DuplicateFaultIdError)) throw error;
      throw new ApiError('ALREADY_EXISTS', `${error.message}; DELETE /_sandbox/faults/${error.id} first, or give the new rule another id`);
    }
    if (Array.isArray(body.value)) return res.status(201).json(added);
    res.location(`/_sandbox/faults/${added[0]!.id}`).status(201).json(added[0]);
  });

  router.delete('/faults', async (_req, res) => {
    res.json({ deleted: await faults.clear() });
  });

  router.delete('/faults/:id', async (req, res) => {
    const removed = await faults.remove(req.params.id);
    if (!removed) throw notFound(req.params.id);
    res.json(removed);
  });

  return router;
}
