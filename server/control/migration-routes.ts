/**
 * /_sandbox/migration: where the POS stands on §9's migration from v1, over the journal's calls and the reports
 * written (server/domain/migration-report.ts). One source for `pos-sandbox migration` and the dashboard's Migration
 * page, so the two cannot disagree.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Router } from 'express';
import type { JournalEntry } from '../journal/journal-entry.js';
import { migrationReport } from '../domain/migration-report.js';
import type { ControlDeps } from './control-router.js';
import { checkQuery } from './control-query.js';

/** Entries rendered per turn of the event loop: a whole journal read at once held every other request back. */
const RENDERED_PER_TURN = 200;

export function migrationRoutes(deps: Pick<ControlDeps, 'journal' | 'checklist'>): Router {
  const router = Router();
  router.get('/migration', async (req, res) => {
    checkQuery(req.query, []);
    const ids = deps.journal.ids({ direction: 'inbound' }).reverse();
    const entries: JournalEntry[] = [];
    for (let start = 0; start < ids.length; start += RENDERED_PER_TURN) {
      if (start > 0) await nextTurn();
      for (const id of ids.slice(start, start + RENDERED_PER_TURN)) {
        // An entry dropped by retention between the two turns is simply not read.
        const entry = deps.journal.get(id);
        if (entry !== undefined) entries.push(entry);
      }
    }
    const reports = await deps.checklist.reports();
    res.json({ calls: entries.length, steps: migrationReport(entries, reports) });
  });
  return router;
}
