/** /_sandbox/journal: list with filters (paged), one entry, HAR 1.2 export (the whole journal, streamed), clear. */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { writeHar } from './har-export.js';
import type { ControlDeps } from '../control/control-router.js';
import { journalFilter } from '../control/control-query.js';
import { JOURNAL_PAGE, JOURNAL_PAGE_BYTES } from '../control/paging.js';
import { sendPage } from '../control/page-response.js';

export function journalRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { journal } = deps;

  router.get('/journal', (req, res) => {
    const filter = journalFilter(req.query, JOURNAL_PAGE);
    sendPage(req, res, journal.page(filter, filter.limit!, JOURNAL_PAGE_BYTES), 'before');
  });

  router.delete('/journal', (_req, res) => {
    journal.clear();
    res.json({ cleared: true });
  });

  // Streamed, an entry at a time: a whole journal is tens of megabytes, and one string of it held every other
  // request back for a second and doubled the process's memory.
  router.get('/journal.har', async (req, res) => {
    const filter = journalFilter(req.query);
    const end = deps.quota.startHarExport();
    res.once('close', end);
    const ids = journal.ids(filter).reverse();
    const baseUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set({ 'content-type': 'application/json; charset=utf-8', 'content-disposition': 'attachment; filename="pos-sandbox-journal.har"' });
    await writeHar(res, ids, (id) => journal.get(id), { creator: { name: 'pos-sandbox', version: deps.version }, baseUrl, bytesPerSecond: deps.quota.quotas.harExportBytesPerSecond });
    end();
  });

  router.get('/journal/:id', (req, res) => {
    const entry = journal.get(req.params.id);
    if (!entry) throw new ApiError('NOT_FOUND', `no journal entry '${req.params.id}'; it may have been dropped (the journal keeps ${journal.limit})`);
    res.json(entry);
  });

  return router;
}
