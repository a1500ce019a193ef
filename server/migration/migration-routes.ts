/**
 * /_sandbox/migration: where the POS stands on §9's migration from v1, over the journal's calls and the reports
 * written (server/domain/migration-report.ts). One source for `pos-sandbox migration` and the dashboard's Migration
 * page, so the two cannot disagree.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Router } from 'express';
import { MigrationTally } from './migration-report.js';
import type { ControlDeps } from '../control/control-router.js';
import { checkQuery } from '../control/control-query.js';

/** How long one turn of the event loop may spend reading the journal: a whole one read at once held every other request back. */
const TURN_MS = 10;

export function migrationRoutes(deps: Pick<ControlDeps, 'journal' | 'checklist'>): Router {
  const router = Router();
  router.get('/migration', async (req, res) => {
    checkQuery(req.query, []);
    const ids = deps.journal.ids({ direction: 'inbound' }).reverse();
    const tally = new MigrationTally();
    let turnStarted = performance.now();
    for (const id of ids) {
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
      // An entry dropped by retention while the report was read is simply not counted.
      const entry = deps.journal.get(id);
      if (entry !== undefined) tally.add(entry);
    }
    res.json(tally.report(await deps.checklist.reports()));
  });
  return router;
}
