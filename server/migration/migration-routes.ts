/** GET /_sandbox/migration: where the POS stands on §9's migration from v1; one source for the CLI and the dashboard, so they agree. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkQuery } from '../control/control-query.js';
import type { ChecklistRuns } from '../checklist/checklist-runs.js';
import type { Journal } from '../journal/journal.js';
import { controlOk, controlResponses, ref } from '../openapi/openapi-parts.js';
import { MigrationTally } from './migration-report.js';
import { MIGRATION_STEPS, isUpdateOrderState, lastSegment, REFUND_RESULT_INSTEAD, stepOf, UPDATE_ORDER_STATE_INSTEAD, waitsForRefundResult } from './v1-habits.js';
import { Router, type RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor } from '../errors.js';
import { readBodyText } from '../http/json-body.js';
import { allowedMethods, routePathOf, type Route, type ControlRoute } from '../http/route.js';

/** How long one turn of the event loop may spend reading the journal: a whole one read at once held every other request back. */
const TURN_MS = 10;

export const migrationRoute: ControlRoute<{ journal: Journal; checklist: ChecklistRuns }> = {
  method: 'GET',
  path: '/_sandbox/migration',
  api: 'control',
  handle: ({ journal, checklist }) => async (req, res) => {
    checkQuery(req.query, []);
    const tally = new MigrationTally();
    let turnStarted = performance.now();
    for (const id of journal.ids({ direction: 'inbound' }).reverse()) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      // An entry dropped by retention while the report was read is simply not counted.
      const entry = journal.get(id);
      if (entry !== undefined) tally.add(entry);
    }
    res.json(tally.report(await checklist.reports()));
  },
  doc: {
    operationId: 'migration',
    summary: "Where the POS stands on §9's migration from v1",
    description:
      "The seven steps of §9 in order, read from the journal's calls of the POS and the reports written: each done (v2 traffic of its kind, no v1 habit left), in progress (with the journal ids of the calls that still show a v1 habit, at most 20) or not yet exercised, and what to change next. " +
      "`pos-sandbox migration` prints it and the dashboard's Migration page shows it.",
    responses: controlResponses({ '200': controlOk('The report', ref('MigrationReport')) }, { invalid: 'a query parameter' }),
  },
};

export const migrationSchemas = {
  MigrationReport: {
    type: 'object',
    required: ['calls', 'steps'],
    properties: {
      calls: { type: 'integer', minimum: 0, description: 'The calls of the POS the journal held' },
      steps: {
        type: 'array',
        minItems: 7,
        maxItems: 7,
        items: {
          type: 'object',
          required: ['number', 'step', 'state', 'v1Calls', 'v1CallCount', 'next'],
          properties: {
            number: { type: 'integer', minimum: 1, maximum: 7 },
            step: { enum: [...MIGRATION_STEPS] },
            state: { enum: ['done', 'in progress', 'not yet exercised'] },
            v1Calls: { type: 'array', maxItems: 20, items: { type: 'string' } },
            v1CallCount: { type: 'integer', minimum: 0, description: 'How many calls show a v1 habit of the step; v1Calls lists the first 20' },
            next: { type: 'string' },
          },
        },
      },
    },
  },
};

/** The retired v1 family answers 410 with the v2 path to use (§4.3, §9), and v1's UpdateOrderState, anywhere, 410 with what replaces it. */

/** The retired v1 family (§4.3), answered with 410 and the v2 path to use. */
export const LEGACY_MOUNT = '/v1/pos/integration';

/** A path below v1's menu: /menu/items, /menu/items/{id} … */
const MENU_BELOW = /^\/menu\//;

/** What v2 serves in place of `method rest` (the path below the v1 mount), in the words of the 410. */
function v2Instead(routes: ReadonlyArray<Route<never>>, method: string, rest: string): string {
  const routePath = routePathOf(rest);
  if (waitsForRefundResult(method, routePath)) return REFUND_RESULT_INSTEAD;
  if (MENU_BELOW.test(routePath)) return `v2 has no menu endpoint below /menu: it updates items, by Id, with PUT /v2/menu (also under /v1/pos/openapi/menu), with a Bearer JWT (§4.2, §4.3, §5)`;
  const allowed = allowedMethods(routes, rest);
  const SERVED = routes.filter((route) => route.api === 'pos').map((route) => `${route.method} /v2${route.path}`).join(', ');
  if (allowed.length === 0) return `v2 has no endpoint at ${rest || '/'}; it serves ${SERVED} (also under /v1/pos/openapi), with a Bearer JWT (§4, §4.3, §5)`;
  const v2Method = allowed.includes(method) ? method : allowed.join(' or ');
  return `v2 serves ${v2Method} /v2${routePath} (also under /v1/pos/openapi${routePath}), with a Bearer JWT (§4.3, §5)`;
}

/** A path whose last segment is UpdateOrderState: v2 has no such endpoint, and says which one replaces it. */
export const updateOrderStateRetired: RequestHandler = (req, res, next) => {
  if (!isUpdateOrderState(lastSegment(req.path))) return next();
  res.locals.family = 'order';
  const retired = new ApiError('ENDPOINT_RETIRED', `${req.method} ${req.baseUrl}${req.path} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}`);
  // Read first, so the journal keeps the decision the POS meant.
  readBodyText(req, res, () => next(retired));
};

export function legacyRouter(routes: ReadonlyArray<Route<never>>): Router {
  const router = Router();
  router.use(updateOrderStateRetired);
  router.use((req, res, next) => {
    // v1's menu family (…/menu/items/x) answers in the menu envelope, as v2's menu endpoint does.
    res.locals.family = MENU_BELOW.test(routePathOf(req.path)) ? 'menu' : envelopeFamilyFor(req.path);
    const rest = req.path === '/' ? '' : req.path;
    const retired = new ApiError('ENDPOINT_RETIRED', `${LEGACY_MOUNT}${rest} is the retired v1 integration API (${stepOf('adjust endpoints')}); ${v2Instead(routes, req.method, rest)}`);
    // Read first: the journal keeps what the POS sent to v1 (a menu update's v1 fields, a refund's ExternalId).
    readBodyText(req, res, () => next(retired));
  });
  return router;
}
