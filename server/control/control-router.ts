/** The control API under /_sandbox, behind the admin guard. */
import type { DispatchPolicy } from '../orders/order-dispatcher.js';
import { Router, type RequestHandler } from 'express';
import type { Redactor } from '../journal/redactor.js';
import { ApiError } from '../errors.js';
import type { PartnerIdentity } from '../config.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import type { MenuUpdateValidators } from '../menus/menu-update-schemas.js';
import type { JtiRegistry } from '../tokens/jti-registry.js';
import type { Journal } from '../journal/journal.js';
import type { RefundProcessor } from '../refunds/refund-processor.js';
import type { OrderDesk } from '../orders/order-desk.js';
import type { SandboxEvents } from '../events/sandbox-events.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { FaultBook } from '../faults/fault-book.js';
import { adminGuard } from './admin-guard.js';
import { crossSiteGuard } from './cross-site-guard.js';
import { journalRoutes } from '../journal/journal-routes.js';
import { sandboxOpenApi } from '../openapi/sandbox-openapi.js';
import { pingStore } from '../store/ping-store.js';
import { stateRoutes } from './state-routes.js';
import { checkQuery } from './control-query.js';
import { orderRoutes } from '../orders/order-routes.js';
import { eventRoutes } from '../events/event-routes.js';
import { tokenRoutes } from '../tokens/token-routes.js';
import { faultRoutes } from '../faults/fault-routes.js';
import { checklistRoutes } from '../checklist/checklist-routes.js';
import { secretRoutes } from '../journal/secret-routes.js';
import { migrationRoutes } from '../migration/migration-routes.js';
import { stressRoutes } from '../stress/stress-routes.js';
import type { ChecklistRuns } from '../checklist/checklist-runs.js';
import type { EgressPolicy } from '../hosted/egress-policy.js';
import type { QuotaBook } from '../hosted/quota-book.js';

export const CONTROL_MOUNT = '/_sandbox';

export interface ControlDeps {
  fixtures: Fixtures;
  partner: PartnerIdentity;
  store: SandboxStore;
  refunds: RefundProcessor;
  orders: OrderDesk;
  events: SandboxEvents;
  faults: FaultBook;
  checklist: ChecklistRuns;
  journal: Journal;
  jtis: JtiRegistry;
  clock: () => number;
  startedAt: number;
  version: string;
  strict: boolean;
  refundDelayMs: number;
  dispatchPolicy: DispatchPolicy;
  adminToken: string | undefined;
  /** --host: a Host header naming it is the sandbox's own (besides the loopback names). */
  listenHost: string | undefined;
  menuSchemas: MenuUpdateValidators;
  /** This process, among the instances that may serve one database. */
  instanceId: string;
  /** Several instances on one database: the key of the requests another instance sends on (domain/forward-proof.ts). */
  forwardKey?: string;
  /** Set once the process is stopping: readiness then answers 503, so a load balancer sends no more. */
  readiness: Readiness;
  /** Which addresses the sandbox may call for the partner: posOrderUrl, driverUrl are held to it. */
  egress: EgressPolicy;
  /** The partner's quotas: event streams and HAR exports are counted against it. */
  quota: QuotaBook;
  /** A partner of a hosted sandbox: health and readiness show nothing of the store or the host. */
  hosted: boolean;
}

/**
 * Every JSON answer of the control API passes the redaction of the journal: a refund whose ExternalId is the key, an
 * order whose Reason quotes a token, a menu item named after a signature are data of the partner's, and the lists,
 * the dashboard and the commands show them as the journal does. Not the answers that are redacted already (the
 * journal's), the one that hands out a token on purpose (POST /tokens), nor the document of the API.
 */
function redactAnswers(redactor: Redactor): RequestHandler {
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    if ((req.method === 'POST' && path === '/tokens') || path === '/openapi.json' || path === '/journal' || path.startsWith('/journal/')) return next();
    const json = res.json.bind(res);
    res.json = ((body: unknown) => json(redactor.value(body))) as typeof res.json;
    next();
  };
}

export interface Readiness {
  draining: boolean;
}

/** Why readiness is 503: the process stops, or (as a hosted sandbox says it, naming no store) the store is silent. */
export const STOPPING = 'stopping: finishing the requests in flight';
export const STORE_SILENT = 'the store does not answer';

export function controlRouter(deps: ControlDeps): Router {
  const router = Router();
  // One envelope for the whole control API, even on paths that end in /menu.
  router.use((_req, res, next) => {
    res.locals.family = 'order';
    next();
  });
  // Readiness is for load balancers, which carry no token and probe from anywhere; it tells nothing but ready or not.
  // A hosted sandbox's readiness goes to anyone on its network: it names neither the host nor the store's error.
  router.get('/ready', async (req, res) => {
    checkQuery(req.query, []);
    const ping = deps.readiness.draining ? undefined : await pingStore(deps.store.storage);
    const reason = deps.readiness.draining ? STOPPING : ping?.ok === false ? (deps.hosted ? STORE_SILENT : ping.error) : undefined;
    const instance = deps.hosted ? {} : { instanceId: deps.instanceId };
    res.status(reason === undefined ? 200 : 503).json(reason === undefined ? { ready: true, ...instance } : { ready: false, ...instance, reason });
  });
  // Before the token check: a page in a browser is refused whatever it sends.
  router.use(crossSiteGuard({ listenHost: deps.listenHost, adminToken: deps.adminToken !== undefined }));
  router.use(adminGuard(deps.adminToken, deps.forwardKey));
  router.use(redactAnswers(deps.journal.redactor));
  router.use(stateRoutes(deps), orderRoutes(deps), journalRoutes(deps), tokenRoutes(deps), secretRoutes(deps), eventRoutes(deps), faultRoutes(deps), checklistRoutes(deps), migrationRoutes(deps), stressRoutes(deps));
  router.get('/openapi.json', (req, res) => {
    // The Host passed the guard: a loopback name or the --host address (or anything, behind --admin-token).
    const serverUrl = req.headers.host === undefined ? undefined : `${req.protocol}://${req.headers.host}`;
    res.json(sandboxOpenApi({ menuSchemas: deps.menuSchemas, serverUrl }));
  });
  router.use((req) => {
    throw new ApiError('NOT_FOUND', `no control endpoint at ${req.method} ${CONTROL_MOUNT}${req.path}; GET ${CONTROL_MOUNT}/openapi.json describes them all`);
  });
  return router;
}
