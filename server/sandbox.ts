/** Builds a whole sandbox (store, refund processor, order desk, journal, events, app) from its options: what serve and the tests start. */
import { DEFAULT_JOURNAL_LIMIT, DEFAULT_REFUND_DELAY_MS, DEFAULT_REPORT_DIR } from './config.js';
import { HistoryKeeper } from './journal/history-keeper.js';
import { createSecretKey } from 'node:crypto';
import type { Express } from 'express';
import type { PartnerIdentity } from './config.js';
import type { Fixtures } from './fixtures/load-fixtures.js';
import type { Logger } from './logger.js';
import { createApp } from './app.js';
import { loadMenuUpdateSchemas, type MenuUpdateValidators } from './menus/menu-update-schemas.js';
import { JtiRegistry } from './tokens/authenticate.js';
import { Journal } from './journal/journal.js';
import { Redactor } from './journal/redactor.js';
import { RefundProcessor, type SetTimer } from './refunds/refund-processor.js';
import { OrderDesk } from './orders/order-desk.js';
import { DEFAULT_DISPATCH_POLICY, orderDelivery, type DispatchPolicy } from './orders/order-delivery.js';
import { SandboxEvents } from './events/sandbox-events.js';
import { SandboxStore } from './store/sandbox-store.js';
import { openFaultRegistry, type FaultRegistry } from './faults/fault-registry.js';
import type { FaultRule } from './faults/fault-rule-types.js';
import type { DocumentStorage } from './store/segment-storage.js';
import { VERSION } from './version.js';
import { resolve } from 'node:path';
import { hostname } from 'node:os';
import type { Readiness } from './control/sandbox-routes.js';
import { ChecklistRuns } from './checklist/checklist-runs.js';
import { OPEN_EGRESS, type EgressPolicy } from './hosted/egress.js';
import { LAPTOP_QUOTAS, withQuotas, type Quotas, QuotaBook, type SharedSlots } from './hosted/quotas.js';
import { processReportKeys } from './checklist/report-keys.js';
import type { ReportKeys } from '../certification-checklist/report/signing-keys.js';

export interface SandboxOptions {
  fixtures: Fixtures;
  partner: PartnerIdentity;
  storage: DocumentStorage;
  logger: Logger;
  strict?: boolean;
  refundDelayMs?: number;
  journalLimit?: number;
  /** The most refunds kept (the store's retention). */
  refundLimit?: number;
  adminToken?: string;
  /** --host: the address the server listens on, a Host the control API takes. */
  listenHost?: string;
  clock?: () => number;
  newId?: () => string;
  setTimer?: SetTimer;
  /** Default: the schemas in menu-template/schemas. */
  menuSchemas?: MenuUpdateValidators;
  /** --pos-order-url: where orders are delivered unless an order names its own. */
  posOrderUrl?: string;
  /** Tries, timeout and backoff of order delivery (3 tries, 10 s). */
  dispatch?: Partial<DispatchPolicy>;
  /** How long a status call that races its order's unread reply waits for the delivery (default 2 s); tests shorten it. */
  raceWaitMs?: number;
  /** The wait between delivery tries; tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** --faults: the fault rules of the start, in place of any stored ones. */
  faults?: FaultRule[];
  /** The redaction of every output; serve shares it with the logger. Default: one for the partner's key. */
  redactor?: Redactor;
  /** The chance source of `probability` rules, in [0, 1). */
  random?: () => number;
  /** Where checklist runs started from the control API write their reports (default: certification-reports/ here). */
  reportDir?: string;
  /** This process among the instances of one database (default: host name and process id). */
  instanceId?: string;
  /** Several instances on one database: the key of the requests another instance sends on (server/hosted/). */
  forwardKey?: string;
  /** Shared by the sandboxes of one process (a hosted sandbox's partners): set `draining` when it stops. */
  readiness?: Readiness;
  /** Which addresses the sandbox may call for the partner (hosted/egress.ts); open (a laptop) by default. */
  egress?: EgressPolicy;
  /** What the partner may use (hosted/quotas.ts); a laptop's by default, with `journalLimit` as its journal. */
  quotas?: Quotas;
  /** A partner of a hosted sandbox: its health shows nothing of the store or the host. */
  hosted?: boolean;
  /** The HAR exports of every partner of the process, together (a hosted sandbox's). */
  allExports?: SharedSlots;
  /** The orders being delivered across every partner of a hosted process (deliveriesInAll). */
  allDeliveries?: SharedSlots;
  /** The keys its reports are signed with and /.well-known/jwks.json publishes; one of this process's own by default. */
  reportKeys?: ReportKeys;
}

export interface Sandbox {
  app: Express;
  store: SandboxStore;
  refunds: RefundProcessor;
  orders: OrderDesk;
  events: SandboxEvents;
  faults: FaultRegistry;
  journal: Journal;
  /** Checklist runs started from the control API; told the sandbox's address once it listens. */
  checklist: ChecklistRuns;
  /** What its reports are signed with. */
  reportKeys: ReportKeys;
  /** The partner's quotas, and how often each refused. */
  quota: QuotaBook;
  /** Readiness answers 503 once `draining` is set (a stop under way). */
  readiness: Readiness;
  /** Stops the refund timer; the store has nothing left to write once commits have resolved. */
  close(): void;
  /** Saves the journal entries and events not yet in the store (none on a laptop); a hand-over waits for it. */
  flush(): Promise<void>;
}

// In config.ts, which the commands' options read without loading the sandbox.
export { DEFAULT_JOURNAL_LIMIT, DEFAULT_REFUND_DELAY_MS } from './config.js';

/** The host's name and the process id: unique among the instances of one database, and telling where each runs. */
export function defaultInstanceId(): string {
  return `${hostname()}-${process.pid}`;
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const refundDelayMs = options.refundDelayMs ?? DEFAULT_REFUND_DELAY_MS;
  const store = await SandboxStore.open(options.storage, options.fixtures, clock, { refundLimit: options.refundLimit, partner: options.partner.name });
  for (const note of store.notes) options.logger.warn({ store: options.storage.where }, note);
  const refunds = new RefundProcessor({
    store,
    locationIds: new Set(options.fixtures.locations.map((location) => location.id)),
    clock,
    newId,
    delayMs: refundDelayMs,
    setTimer: options.setTimer,
    onError: (error) => options.logger.warn({ err: error }, 'refunds fell due but could not be stored: they stay decided here, and the next write stores them'),
  });
  const redactor = options.redactor ?? new Redactor(options.partner.nonProdKey);
  const egress = options.egress ?? OPEN_EGRESS;
  const quotas = options.quotas ?? withQuotas(LAPTOP_QUOTAS, { journalEntries: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT });
  const quota = new QuotaBook(quotas, options.partner.name, clock, options.allExports, options.allDeliveries);
  const journal = new Journal(quotas.journalEntries, redactor, quotas.journalBytes);
  const faults = await openFaultRegistry({ store, logger: options.logger, initial: options.faults, random: options.random ?? Math.random, clock });
  const dispatchPolicy: DispatchPolicy = { ...DEFAULT_DISPATCH_POLICY, ...options.dispatch };
  const partnerKey = createSecretKey(Buffer.from(options.partner.nonProdKey, 'utf8'));
  const orders = new OrderDesk({ store, locations: options.fixtures.locations, templates: options.fixtures.templates, clock, newId, posOrderUrl: options.posOrderUrl, raceWaitMs: options.raceWaitMs });
  orders.useDelivery(
    orderDelivery({
      desk: orders,
      journal,
      partner: options.partner,
      key: partnerKey,
      clock,
      newId,
      version: VERSION,
      policy: dispatchPolicy,
      sleep: options.sleep,
      faults,
      egress,
    }),
  );
  await orders.recoverInterrupted();
  const events = new SandboxEvents(clock, redactor);
  orders.on('changed', (order) => events.publish('order', order));
  refunds.on('accepted', (refund) => events.publish('refund', refund));
  refunds.on('settled', (refund) => events.publish('refund', refund));
  journal.on('added', (summary) => events.publish('journal', summary));
  // A hosted sandbox's database keeps the journal and the event backlog: read back now, saved as they grow.
  const history = options.storage.history === undefined ? undefined : await HistoryKeeper.start(options.storage.history, journal, events, options.logger);
  const readiness = options.readiness ?? { draining: false };
  const reportKeys = options.reportKeys ?? processReportKeys();
  const checklist = new ChecklistRuns({
    reportKeys,
    reportDir: resolve(options.reportDir ?? DEFAULT_REPORT_DIR),
    fixtures: options.fixtures,
    partner: options.partner,
    adminToken: options.adminToken,
    clock,
    egress,
    quota,
    orders: { all: () => store.orders.all(), forget: (ids) => orders.forget(ids) },
  });
  // Runs past their retention since the last start (their age, or a quota lowered meanwhile) go now.
  checklist.keepNewestRuns().catch((error: unknown) => options.logger.warn({ err: error }, 'could not remove the checklist runs past their retention'));
  checklist.on('changed', (run) => events.publish('checklist', run));
  const app = createApp({
    fixtures: options.fixtures,
    partner: options.partner,
    partnerKey,
    strict: options.strict ?? false,
    logger: options.logger,
    store,
    refunds,
    orders,
    events,
    faults,
    checklist,
    journal,
    jtis: new JtiRegistry(),
    version: VERSION,
    refundDelayMs,
    dispatchPolicy,
    menuSchemas: options.menuSchemas ?? loadMenuUpdateSchemas(),
    adminToken: options.adminToken,
    listenHost: options.listenHost,
    instanceId: options.instanceId ?? defaultInstanceId(),
    forwardKey: options.forwardKey,
    readiness,
    egress,
    quota,
    hosted: options.hosted ?? false,
    reportKeys,
    clock,
    startedAt: clock(),
    newId,
  });
  refunds.start();
  return { app, store, refunds, orders, events, faults, journal, checklist, reportKeys, quota, readiness, close: () => refunds.stop(), flush: async () => history?.flush() };
}
