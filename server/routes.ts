/** Every endpoint, declared once, in the OpenAPI document's order: the app, the hosted front, the metrics and the document all read this table. */
import type { KeyObject } from 'node:crypto';
import type { ReportKeys } from '../certification-checklist/report/signing-keys.js';
import { checklistRunRoute, checklistRunsRoute, startChecklistRunRoute } from './checklist/checklist-routes.js';
import type { ChecklistRuns } from './checklist/checklist-runs.js';
import { jwksRoute, reportFileRoute, reportsRoute } from './checklist/report-routes.js';
import type { PartnerIdentity } from './config.js';
import { dashboardRootRoute, dashboardRoute } from './control/dashboard-routes.js';
import { healthRoute, partnersRoute, readyRoute, resetRoute, type Readiness } from './control/sandbox-routes.js';
import { eventsRoute } from './events/event-routes.js';
import type { SandboxEvents } from './events/sandbox-events.js';
import type { FaultRegistry } from './faults/fault-registry.js';
import { addFaultsRoute, clearFaultsRoute, faultRoute, faultScriptsRoute, faultsRoute, removeFaultRoute } from './faults/fault-routes.js';
import type { Fixtures } from './fixtures/load-fixtures.js';
import type { ControlRoute, OperatorRoute, Route } from './http/route.js';
import type { EgressPolicy } from './hosted/egress.js';
import type { QuotaBook } from './hosted/quotas.js';
import { clearJournalRoute, journalEntryRoute, journalHarRoute, journalRoute, secretsCheckRoute } from './journal/journal-routes.js';
import type { Journal } from './journal/journal.js';
import type { Logger } from './logger.js';
import { locationMenuRoute, locationsRoute, menuRoute } from './menus/menu-routes.js';
import type { MenuUpdateValidators } from './menus/menu-update-schemas.js';
import { migrationRoute } from './migration/migration-routes.js';
import { controlOk, controlResponses } from './openapi/openapi-parts.js';
import { documentOf } from './openapi/openapi-document.js';
import type { DispatchPolicy } from './orders/order-delivery.js';
import type { OrderDesk } from './orders/order-desk.js';
import { createOrderRoute, orderRoute, ordersRoute, orderStatusRoute, resendOrderRoute } from './orders/order-routes.js';
import type { RefundProcessor } from './refunds/refund-processor.js';
import { refundRoute, refundsRoute } from './refunds/refund-routes.js';
import type { SandboxStore } from './store/sandbox-store.js';
import { startStressRunRoute, stressRunRoute, stressRunsRoute, updateStressRunRoute } from './stress/stress-routes.js';
import type { JtiRegistry } from './tokens/authenticate.js';
import { checkTokenRoute, mintTokenRoute } from './tokens/token-routes.js';

/** What the routes are built from: one sandbox's parts. createApp(deps) is handed them; it reads no files, env or argv. */
export interface AppDeps {
  fixtures: Fixtures;
  partner: PartnerIdentity;
  /** The partner's key, made into a secret key once: jsonwebtoken re-derives one from a string at every call. */
  partnerKey: KeyObject;
  strict: boolean;
  logger: Logger;
  store: SandboxStore;
  refunds: RefundProcessor;
  orders: OrderDesk;
  events: SandboxEvents;
  faults: FaultRegistry;
  checklist: ChecklistRuns;
  journal: Journal;
  jtis: JtiRegistry;
  version: string;
  refundDelayMs: number;
  /** Tries, timeout and backoff of order delivery, shown by the health (the checklist judges acknowledgement times by it). */
  dispatchPolicy: DispatchPolicy;
  menuSchemas: MenuUpdateValidators;
  adminToken?: string;
  /** --host: the control API takes a Host naming it, besides the loopback names. */
  listenHost?: string;
  /** Where the dashboard's built files are (dist/dashboard by default). */
  dashboardDirectory?: string;
  /** This process, among the instances that may serve one database. */
  instanceId: string;
  /** Several instances on one database: the key of the requests another instance sends on. */
  forwardKey?: string;
  readiness: Readiness;
  /** Which addresses the sandbox may call for the partner: the URLs the control API takes are held to it. */
  egress: EgressPolicy;
  quota: QuotaBook;
  /** A partner of a hosted sandbox: its health shows nothing of the store or the host. */
  hosted: boolean;
  /** The keys its reports are signed with, published at /.well-known/jwks.json. */
  reportKeys: ReportKeys;
  /** Milliseconds since the epoch; injected so token expiry and refunds are tested without waiting. */
  clock: () => number;
  startedAt: number;
  newId?: () => string;
}

const openApiRoute: ControlRoute<AppDeps> = {
  method: 'GET',
  path: '/_sandbox/openapi.json',
  api: 'control',
  unredacted: true,
  handle: ({ menuSchemas }) => (req, res) => {
    // The Host passed the guard: a loopback name or the --host address (or anything, behind --admin-token).
    const serverUrl = req.headers.host === undefined ? undefined : `${req.protocol}://${req.headers.host}`;
    res.json(documentOf(ROUTES, { menuSchemas, serverUrl }));
  },
  doc: {
    operationId: 'openapi',
    summary: 'This document',
    description: 'This OpenAPI 3.1 document, with servers naming the address it was fetched from; openapi/openapi.json is the same for the default address.',
    responses: controlResponses({ '200': controlOk('OpenAPI 3.1', { type: 'object' }) }),
  },
};

/** What an operator's Prometheus scrapes from each instance of a hosted sandbox. */
const metricsRoute: OperatorRoute = {
  method: 'GET',
  path: '/metrics',
  api: 'operator',
  handle: ({ metrics }) => async (_req, res) => {
    const { body, contentType } = await metrics.render();
    res.set({ 'content-type': contentType, 'cache-control': 'no-store' }).send(body);
  },
};

export const ROUTES: ReadonlyArray<Route<AppDeps>> = [
  refundRoute,
  menuRoute,
  orderStatusRoute,
  secretsCheckRoute,
  healthRoute,
  readyRoute,
  resetRoute,
  partnersRoute,
  locationsRoute,
  locationMenuRoute,
  ordersRoute,
  createOrderRoute,
  orderRoute,
  resendOrderRoute,
  eventsRoute,
  faultScriptsRoute,
  faultsRoute,
  addFaultsRoute,
  clearFaultsRoute,
  faultRoute,
  removeFaultRoute,
  refundsRoute,
  journalRoute,
  clearJournalRoute,
  journalHarRoute,
  journalEntryRoute,
  checklistRunsRoute,
  startChecklistRunRoute,
  checklistRunRoute,
  reportsRoute,
  migrationRoute,
  jwksRoute,
  reportFileRoute,
  stressRunsRoute,
  startStressRunRoute,
  stressRunRoute,
  updateStressRunRoute,
  mintTokenRoute,
  checkTokenRoute,
  openApiRoute,
  dashboardRootRoute,
  dashboardRoute,
  metricsRoute,
];

/** The sandbox's OpenAPI document, made from the table (openapi/openapi.json is it for the default address). */
export function sandboxOpenApi(options: { menuSchemas?: MenuUpdateValidators; serverUrl?: string } = {}): object {
  return documentOf(ROUTES, options);
}
