/** /_sandbox/journal: list with filters, one entry, HAR 1.2 export, clear. */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { toHar } from '../journal/har.js';
import type { ControlDeps } from './control-router.js';
import { journalFilter } from './control-query.js';

export function journalRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { journal } = deps;

  router.get('/journal', (req, res) => {
    res.json(journal.list({ limit: 100, ...journalFilter(req.query) }));
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
