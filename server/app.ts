/** createApp(deps) → the Express app. It is handed its store and everything else: no files, env, argv or listen here. */
import { createSecretKey, randomUUID } from 'node:crypto';
import express, { Router, type Express, type RequestHandler } from 'express';
import type { EnvelopeFamily } from './errors.js';
import type { PartnerIdentity } from './config.js';
import type { Fixtures } from './fixtures/load-fixtures.js';
import type { Logger } from './logger.js';
import type { JtiRegistry } from './domain/jti-registry.js';
import type { Journal } from './journal/journal.js';
import type { MenuUpdateValidators } from './fixtures/menu-update-schemas.js';
import type { RefundProcessor } from './processing/refund-processor.js';
import type { OrderDesk } from './processing/order-desk.js';
import type { SandboxEvents } from './events/sandbox-events.js';
import type { SandboxStore } from './store/sandbox-store.js';
import type { FaultBook } from './processing/fault-book.js';
import type { DispatchPolicy } from './dispatch/order-dispatcher.js';
import { authenticate } from './pipeline/authenticate.js';
import { errorHandler } from './pipeline/error-handler.js';
import { injectFaults } from './pipeline/faults.js';
import { recordJournal } from './pipeline/journal-recorder.js';
import { parseBody, readBodyText } from './pipeline/json-body.js';
import { readLocation } from './pipeline/location.js';
import { noteMigrationHeaders } from './pipeline/migration-headers.js';
import { requestId } from './pipeline/request-id.js';
import { requireHostHeader } from './pipeline/host-header.js';
import { requestLog } from './pipeline/request-log.js';
import { legacyRouter } from './api/legacy.js';
import { notFound } from './api/not-found.js';
import { LEGACY_MOUNT, POS_MOUNTS } from './api/pos-routes.js';
import { menuHandler } from './api/menu.js';
import { refundHandler } from './api/refund.js';
import { orderStatusHandler } from './api/order-status.js';
import { CONTROL_MOUNT, controlRouter } from './control/control-router.js';
import './pipeline/locals.js';

export interface AppDeps {
  fixtures: Fixtures;
  partner: PartnerIdentity;
  strict: boolean;
  logger: Logger;
  store: SandboxStore;
  refunds: RefundProcessor;
  orders: OrderDesk;
  events: SandboxEvents;
  faults: FaultBook;
  journal: Journal;
  jtis: JtiRegistry;
  version: string;
  refundDelayMs: number;
  /** Tries, timeout and backoff of order delivery, shown by /_sandbox/health (the checklist judges acknowledgement times by it). */
  dispatchPolicy: DispatchPolicy;
  /** The menu-update schemas of menu-template/schemas, compiled. */
  menuSchemas: MenuUpdateValidators;
  adminToken?: string;
  /** --host: the control API takes a Host naming it, besides the loopback names. */
  listenHost?: string;
  /** Milliseconds since the epoch; injected so token expiry and refunds are tested without waiting. */
  clock: () => number;
  newId?: () => string;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  const startedAt = deps.clock();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId(deps.newId ?? randomUUID));
  app.use(requireHostHeader);
  app.use(CONTROL_MOUNT, controlRouter({ ...deps, startedAt, adminToken: deps.adminToken, listenHost: deps.listenHost }));

  // Everything below is the POS API: logged and journaled, in the SANDBOX-SPEC §3 order.
  app.use(requestLog(deps.logger, deps.clock, deps.partner.nonProdKey));
  app.use(recordJournal({ journal: deps.journal, clock: deps.clock, partnerKey: deps.partner.nonProdKey, logger: deps.logger }));
  app.use(injectFaults(deps.faults));
  app.use(LEGACY_MOUNT, legacyRouter());
  const posApi = posApiRouter(deps);
  for (const mount of POS_MOUNTS) app.use(mount, posApi);
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}

/** The POS → service routes: auth → location header → body → handler. */
function posApiRouter(deps: AppDeps): Router {
  // Built once: with a string secret jsonwebtoken re-derives the key on every verify (~0.3 ms, npm run bench).
  const key = createSecretKey(Buffer.from(deps.partner.nonProdKey, 'utf8'));
  const auth = authenticate({ key, posName: deps.partner.name, nonProdKey: deps.partner.nonProdKey, clock: deps.clock, jtis: deps.jtis });
  const posCall = (family: EnvelopeFamily): RequestHandler[] => [
    (_req, res, next) => {
      res.locals.family = family;
      res.locals.findings = [];
      next();
    },
    readBodyText,
    auth,
    readLocation,
    noteMigrationHeaders,
    parseBody,
  ];
  const router = Router();
  router.post(
    '/order/refund',
    ...posCall('order'),
    refundHandler({ strict: deps.strict, refunds: deps.refunds, orders: deps.orders, posName: deps.partner.name }),
  );
  router.post('/order/status', ...posCall('order'), orderStatusHandler({ strict: deps.strict, orders: deps.orders }));
  router.put(
    '/menu',
    ...posCall('menu'),
    menuHandler({
      strict: deps.strict,
      store: deps.store,
      locations: deps.fixtures.locations,
      validators: deps.menuSchemas,
      logger: deps.logger,
      onApplied: (outcome) => deps.events.publish('menu', outcome),
    }),
  );
  return router;
}
