/** /_sandbox/journal: list with filters (paged), one entry, HAR 1.2 export (the whole journal), clear. */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { toHar } from '../journal/har.js';
import type { ControlDeps } from './control-router.js';
import { journalFilter } from './control-query.js';
import { JOURNAL_PAGE, pageOf } from './paging.js';
import { sendPage } from './page-response.js';

export function journalRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { journal } = deps;

  // One more than the page, to know whether a next page follows.
  router.get('/journal', (req, res) => {
    const filter = journalFilter(req.query, JOURNAL_PAGE);
    const limit = filter.limit!;
    sendPage(req, res, pageOf(journal.list({ ...filter, limit: limit + 1 }), (entry) => entry.id, limit), 'before');
  });

  router.delete('/journal', (_req, res) => {
    journal.clear();
    res.json({ cleared: true });
  });

  router.get('/journal.har', (req, res) => {
    const entries = journal.list(journalFilter(req.query)).reverse();
    const baseUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set('Content-Disposition', 'attachment; filename="pos-sandbox-journal.har"');
    res.json(toHar(entries, { name: 'pos-sandbox', version: deps.version }, baseUrl));
  });

  router.get('/journal/:id', (req, res) => {
    const entry = journal.get(req.params.id);
    if (!entry) throw new ApiError('NOT_FOUND', `no journal entry '${req.params.id}'; it may have been dropped (the journal keeps ${journal.limit})`);
    res.json(entry);
  });

  return router;
}
