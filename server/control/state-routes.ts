/** /_sandbox state: health, reset (fixtures and the fault rules of the start), partners, locations and their menus, refunds (paged). */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { keyFingerprint } from '../tokens/key-fingerprint.js';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import type { ControlDeps } from './control-router.js';
import type { RefundView } from '../refunds/refund-outcome.js';
import { checkQuery, pageLimit, unknownCursor } from './control-query.js';
import { pageAfter, RECORD_PAGE } from './paging.js';
import { sendPage } from './page-response.js';
import { pingStore } from '../store/ping-store.js';

export function stateRoutes(deps: ControlDeps): Router {
  const router = Router();
  const { store, refunds, journal, fixtures, partner } = deps;

  router.get('/health', async (req, res) => {
    checkQuery(req.query, []);
    const ping = await pingStore(store.storage);
    // A hosted partner learns nothing of the database or the host (its URL, its errors, the host's name and pid):
    // they are the operator's, who reads them in the operator's health.
    const where = deps.hosted
      ? ping.ok
        ? {}
        : { storeError: "the sandbox's store did not answer; the operator's health says why" }
      : {
          store: store.storage.where,
          storeKind: store.storage.kind,
          // How long the store took to answer a trivial request now (a round trip to the database, a stat of the folder).
          storeLatencyMs: ping.ms,
          ...(ping.ok ? {} : { storeError: ping.error }),
          instanceId: deps.instanceId,
        };
    res.status(ping.ok ? 200 : 503).json({
      status: ping.ok ? 'ok' : 'unavailable',
      version: deps.version,
      startedAt: new Date(deps.startedAt).toISOString(),
      uptimeSeconds: Math.floor((deps.clock() - deps.startedAt) / 1000),
      partner: partner.name,
      ...where,
      refundDelayMs: deps.refundDelayMs,
      // Where orders go when a request names no URL of its own; null: nowhere yet (the checklist stops at start).
      delivery: { ...deps.dispatchPolicy, posOrderUrl: deps.orders.defaultPosOrderUrl ?? null },
      strict: deps.strict,
      journal: { entries: journal.size, limit: journal.limit, bytes: journal.sizeBytes, byteLimit: journal.byteLimit },
      faults: deps.faults.size,
      // Open /events streams, the bytes waiting for slow ones, and how many were dropped for reading too slowly.
      events: deps.events.streams.stats(),
      // What this partner may use, and how often each limit refused it (docs/hosting.md).
      quota: deps.quota.view(),
    });
  });

  router.post('/reset', async (_req, res) => {
    await store.reset();
    await deps.faults.reset();
    refunds.reload();
    journal.clear();
    deps.jtis.clear();
    res.json({ reset: true, orders: store.orders.size, refunds: store.refunds.size, journal: journal.size, faults: deps.faults.size });
  });

  router.get('/partners', (req, res) => {
    checkQuery(req.query, []);
    // The key itself never leaves over HTTP: its fingerprint tells which key the sandbox holds.
    res.json([{ name: partner.name, displayName: fixtures.partner.displayName, keyFingerprint: keyFingerprint(partner.nonProdKey), tokenAudience: SERVICE_AUDIENCE }]);
  });

  router.get('/locations', (req, res) => {
    checkQuery(req.query, []);
    res.json(fixtures.locations.map((location) => ({ ...location, menuItems: store.menu(location.id)?.Items.length ?? 0 })));
  });

  router.get('/locations/:id/menu', (req, res) => {
    const menu = store.menu(req.params.id);
    if (!menu) throw new ApiError('NOT_FOUND', `no location '${req.params.id}'; GET /_sandbox/locations lists them`);
    res.json(menu);
  });

  // Newest first, a page at a time: 100,000 refunds in one answer were 44 MB and held POS calls for most of a second.
  router.get('/refunds', (req, res) => {
    const { location, status, externalId, limit, after } = checkQuery(req.query, ['location', 'status', 'externalId', 'limit', 'after']);
    const keep = (r: RefundView) =>
      (location === undefined || r.locationId === location) && (status === undefined || r.status === status) && (externalId === undefined || r.externalId === externalId);
    // Filtered on the views, and only the page's refunds read whole: a refund read at start is kept as its line.
    const page = pageAfter(store.refunds.views().reverse(), (r) => r.id, keep, pageLimit(limit, RECORD_PAGE), after);
    if (!page) throw unknownCursor('refunds', after!);
    sendPage(req, res, { ...page, items: page.items.map((view) => store.refunds.get(view.id)!) }, 'after');
  });

  return router;
}
