/** createApp(deps) → the Express app. It is handed its store and everything else: no files, env, argv or listen here. */
import { mountJwks } from './checklist/jwks-route.js';
import type { ReportKeys } from '../certification-checklist/report/signing-keys.js';
import { createSecretKey, randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { EnvelopeFamily } from './errors.js';
import type { PartnerIdentity } from './config.js';
import type { Fixtures } from './fixtures/load-fixtures.js';
import type { Logger } from './logger.js';
import type { JtiRegistry } from './tokens/jti-registry.js';
import type { Journal } from './journal/journal.js';
import type { MenuUpdateValidators } from './menus/menu-update-schemas.js';
import type { RefundProcessor } from './refunds/refund-processor.js';
import type { OrderDesk } from './orders/order-desk.js';
import type { SandboxEvents } from './events/sandbox-events.js';
import type { SandboxStore } from './store/sandbox-store.js';
import type { FaultBook } from './faults/fault-book.js';
import type { ChecklistRuns } from './checklist/checklist-runs.js';
import type { DispatchPolicy } from './orders/order-dispatcher.js';
import type { EgressPolicy } from './hosted/egress-policy.js';
import type { QuotaBook } from './hosted/quota-book.js';
import { requestQuota } from './hosted/request-quota.js';
import { authenticate } from './tokens/authenticate.js';
import { errorHandler } from './http/error-handler.js';
import { injectFaults } from './faults/inbound-faults.js';
import { recordJournal } from './journal/journal-recorder.js';
import { bodyTextReader, parseBody } from './http/json-body.js';
import { readLocation } from './http/location.js';
import { noteMigrationHeaders } from './migration/migration-headers.js';
import { requestId } from './http/request-id.js';
import { requireHostHeader } from './http/host-header.js';
import { requestLog } from './http/request-log.js';
import { series } from './http/series.js';
import { legacyRouter, updateOrderStateRetired } from './migration/legacy-routes.js';
import { notFound } from './http/not-found.js';
import { LEGACY_MOUNT, POS_MOUNTS } from './pos-routes.js';
import { menuHandler } from './menus/menu-route.js';
import { refundHandler } from './refunds/refund-route.js';
import { orderStatusHandler } from './orders/order-status-route.js';
import { CONTROL_MOUNT, controlRouter, type Readiness } from './control/control-router.js';
import { dashboardRoutes } from './control/dashboard-routes.js';
import './http/locals.js';

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
  checklist: ChecklistRuns;
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
  /** Where the dashboard's built files are (dist/dashboard by default). */
  dashboardDirectory?: string;
  /** This process, among the instances that may serve one database (/_sandbox/health). */
  instanceId: string;
  /** Several instances on one database: the key of the requests another instance sends on. */
  forwardKey?: string;
  readiness: Readiness;
  /** Which addresses the sandbox may call for the partner: the URLs the control API takes are held to it. */
  egress: EgressPolicy;
  /** The partner's quotas: its request rate first of all. */
  quota: QuotaBook;
  /** A partner of a hosted sandbox: its health shows nothing of the store or the host. */
  hosted: boolean;
  /** The keys its reports are signed with: published at /.well-known/jwks.json. */
  reportKeys: ReportKeys;
  /** Milliseconds since the epoch; injected so token expiry and refunds are tested without waiting. */
  clock: () => number;
  newId?: () => string;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  const startedAt = deps.clock();
  app.disable('x-powered-by');
  app.set('etag', false);
  const front = series(requestId(deps.newId ?? randomUUID), requireHostHeader, requestQuota(deps.quota));
  // Everything below the control API is the POS API: logged and journaled, in the order of the stages in server/pipeline/.
  const recorded = series(
    requestLog(deps.logger, deps.clock, deps.partner.nonProdKey),
    recordJournal({ journal: deps.journal, clock: deps.clock, partnerKey: deps.partner.nonProdKey, logger: deps.logger }),
    injectFaults(deps.faults, deps.quota),
  );
  const posApi = posApiRoutes(deps);
  app.use(front);
  app.use(dashboardRoutes({ adminToken: deps.adminToken !== undefined, listenHost: deps.listenHost, directory: deps.dashboardDirectory, forwardKey: deps.forwardKey }));
  app.use(CONTROL_MOUNT, controlRouter({ ...deps, startedAt, adminToken: deps.adminToken, listenHost: deps.listenHost }));
  mountJwks(app, deps.reportKeys);
  app.use(recorded);
  app.use(LEGACY_MOUNT, legacyRouter());
  for (const route of posApi) app[route.method === 'PUT' ? 'put' : 'post'](route.paths, route.handler);
  // v1's UpdateOrderState under any mount: a 410 naming POST /order/status, not a plain 404 (§9).
  app.use(updateOrderStateRetired);
  app.use(notFound);
  const onError = errorHandler(deps.logger);
  app.use(onError);
  takeLanesFirst(app, posLanes(posApi, front, recorded), onError);
  return app;
}

interface PosApiRoute {
  method: 'POST' | 'PUT';
  /** The route's path under every mount. */
  paths: string[];
  handler: RequestHandler;
}

/** The stages of each POS route under each of its paths, by `METHOD path`: what the routes below run, in their order. */
function posLanes(routes: PosApiRoute[], front: RequestHandler, recorded: RequestHandler): Map<string, RequestHandler> {
  const lanes = new Map<string, RequestHandler>();
  for (const route of routes) {
    const run = series(front, recorded, route.handler);
    for (const path of route.paths) lanes.set(`${route.method} ${path}`, run);
  }
  return lanes;
}

/** Express's own entry, which the app calls with each request (`app(req, res)`), and the router after it. */
type AppEntry = (this: Express, req: Request, res: Response, callback?: NextFunction) => void;

/**
 * A POS call to one of the API's own paths, spelled as the docs spell it, goes straight to its stages, before
 * Express's router: the same stages, in the same order, that the routes run, with what Express sets before its first
 * layer (the prototypes that give req.get and res.json, res.locals, req.originalUrl). The sandbox's own server makes
 * requests and responses with those prototypes already (http-parser-errors.ts), so setting them changes nothing there. With the lane as the router's
 * first layer, the router's walk, its `next` and its final handler still cost a refund 4.4 KB of the 48 it allocated
 * with --memory (npm run bench:alloc, 2026-11-29). Any other spelling (another case, a trailing slash) and any other
 * call take the router, which answers them alike; an error goes to the same error handler.
 */
function takeLanesFirst(app: Express, lanes: Map<string, RequestHandler>, onError: ErrorRequestHandler): void {
  const entry = app as unknown as { handle: AppEntry; request: Request; response: Response };
  const routed = entry.handle;
  entry.handle = function handle(req, res, callback) {
    const query = req.url.indexOf('?');
    // A call handed on by another router (a callback) keeps that router's bookkeeping: only a server's own call takes a lane.
    const lane = callback === undefined ? lanes.get(`${req.method} ${query === -1 ? req.url : req.url.slice(0, query)}`) : undefined;
    if (lane === undefined) return routed.call(this, req, res, callback);
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, entry.request);
    Object.setPrototypeOf(res, entry.response);
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    // A handler answers every call; one that went on would be a bug, answered as the routes' last one answers it.
    lane(req, res, (error?: unknown) => onError(error ?? new Error(`${req.method} ${req.path} went past its handler`), req, res, () => undefined));
  };
}

/**
 * The POS → service routes: auth → location header → body → handler. Each route is the app's own, under every
 * mount's path, rather than a router mounted three times: a call to /v2 walked the router at / first, and each
 * router a call passes through costs its own walk (npm run bench).
 */
function posApiRoutes(deps: AppDeps): PosApiRoute[] {
  // Built once: with a string secret jsonwebtoken re-derives the key on every verify (~0.3 ms, npm run bench).
  const key = createSecretKey(Buffer.from(deps.partner.nonProdKey, 'utf8'));
  // The partner's own limit, the whole sandbox's (1 MiB) unless a hosted sandbox set a lower one.
  const readBody = bodyTextReader(deps.quota.quotas.bodyBytes);
  const auth = authenticate({ key, posName: deps.partner.name, nonProdKey: deps.partner.nonProdKey, clock: deps.clock, jtis: deps.jtis });
  const posCall = (family: EnvelopeFamily, handler: RequestHandler): RequestHandler =>
    series(
      (_req, res, next) => {
        res.locals.family = family;
        res.locals.findings = [];
        next();
      },
      readBody,
      auth,
      readLocation,
      noteMigrationHeaders,
      parseBody,
      handler,
    );
  const under = (path: string) => POS_MOUNTS.map((mount) => `${mount === '/' ? '' : mount}${path}`);
  const refund = refundHandler({ strict: deps.strict, refunds: deps.refunds, orders: deps.orders, posName: deps.partner.name });
  const status = orderStatusHandler({ strict: deps.strict, orders: deps.orders });
  const menu = menuHandler({
    strict: deps.strict,
    store: deps.store,
    locations: deps.fixtures.locations,
    validators: deps.menuSchemas,
    logger: deps.logger,
    onApplied: (outcome) => deps.events.publish('menu', outcome),
  });
  return [
    { method: 'POST', paths: under('/order/refund'), handler: posCall('order', refund) },
    { method: 'POST', paths: under('/order/status'), handler: posCall('order', status) },
    { method: 'PUT', paths: under('/menu'), handler: posCall('menu', menu) },
  ];
}
