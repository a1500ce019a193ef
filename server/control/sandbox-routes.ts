/** The sandbox itself: health, readiness, reset and the partner, as a partner and as a hosted sandbox's operator see them; and their OpenAPI parts. */
import type { EventStreams } from '../events/stream-backlog.js';
import type { ControlRoute } from '../http/route.js';
import type { QuotaBook } from '../hosted/quotas.js';
import type { Journal } from '../journal/journal.js';
import { controlError, controlOk, controlResponses, ref } from '../openapi/openapi-parts.js';
import type { DispatchPolicy } from '../orders/order-delivery.js';
import type { OrderDesk } from '../orders/order-desk.js';
import type { RefundProcessor } from '../refunds/refund-processor.js';
import { pingStore } from '../store/sandbox-store.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { FaultRegistry } from '../faults/fault-registry.js';
import type { JtiRegistry } from '../tokens/authenticate.js';
import { keyFingerprint } from '../tokens/mint-pos-token.js';
import { SERVICE_AUDIENCE } from '../tokens/pos-token-rules.js';
import { checkQuery } from './control-query.js';

/** Set once the process stops: readiness then answers 503, so a load balancer sends no more. */
export interface Readiness {
  draining: boolean;
}

/** Why readiness is 503: the process stops, or (as a hosted sandbox says it, naming no store) the store is silent. */
export const STOPPING = 'stopping: finishing the requests in flight';
export const STORE_SILENT = 'the store does not answer';

interface SandboxDeps {
  store: SandboxStore;
  refunds: RefundProcessor;
  orders: OrderDesk;
  journal: Journal;
  faults: FaultRegistry;
  jtis: JtiRegistry;
  events: { streams: EventStreams };
  quota: QuotaBook;
  partner: { name: string; nonProdKey: string };
  fixtures: { partner: { displayName: string } };
  readiness: Readiness;
  dispatchPolicy: DispatchPolicy;
  version: string;
  startedAt: number;
  clock: () => number;
  instanceId: string;
  refundDelayMs: number;
  strict: boolean;
  hosted: boolean;
}

const uptime = (view: { startedAt: number; clock(): number }) => ({ startedAt: new Date(view.startedAt).toISOString(), uptimeSeconds: Math.floor((view.clock() - view.startedAt) / 1000) });

export const healthRoute: ControlRoute<SandboxDeps> = {
  method: 'GET',
  path: '/_sandbox/health',
  api: 'control',
  handle: (deps) => async (req, res) => {
    checkQuery(req.query, []);
    const { store, journal } = deps;
    const ping = await pingStore(store.storage);
    // A hosted partner learns nothing of the database or the host: they are the operator's, in the operator's health.
    const where = deps.hosted
      ? ping.ok
        ? {}
        : { storeError: "the sandbox's store did not answer; the operator's health says why" }
      : { store: store.storage.where, storeKind: store.storage.kind, storeLatencyMs: ping.ms, ...(ping.ok ? {} : { storeError: ping.error }), instanceId: deps.instanceId };
    const { startedAt, uptimeSeconds } = uptime(deps);
    res.status(ping.ok ? 200 : 503).json({
      status: ping.ok ? 'ok' : 'unavailable',
      version: deps.version,
      startedAt,
      uptimeSeconds,
      partner: deps.partner.name,
      ...where,
      refundDelayMs: deps.refundDelayMs,
      // Where orders go when a request names no URL of its own; null: nowhere yet (the checklist stops at start).
      delivery: { ...deps.dispatchPolicy, posOrderUrl: deps.orders.defaultPosOrderUrl ?? null },
      strict: deps.strict,
      journal: { entries: journal.size, limit: journal.limit, bytes: journal.sizeBytes, byteLimit: journal.byteLimit },
      faults: deps.faults.size,
      events: deps.events.streams.stats(),
      quota: deps.quota.view(),
    });
  },
  operator: (view) => async (_req, res) => {
    const partners: Array<Record<string, unknown>> = await Promise.all(view.partners.map(async (partner) => ({ name: partner.name, ...(await partner.health()) })));
    const ok = partners.every((partner) => partner.status === 'ok');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', version: view.version, ...uptime(view), instanceId: view.instanceId, partners });
  },
  doc: {
    operationId: 'health',
    summary: 'Status, version and uptime',
    description:
      'Whether the sandbox is up, with its version, store (what holds the state, and how long it took to answer a trivial request now), instance id, refund delay, delivery policy, journal size, fault rules in force, event-stream load, and the quotas with how often each refused. A partner of a hosted sandbox (serve --partners) is shown nothing of the store or the host: no store, storeKind, storeLatencyMs or instanceId, and a storeError that names no cause. 503 with the same body when the store does not answer within 2 s.',
    responses: controlResponses(
      { '200': controlOk('The sandbox is up', ref('Health')), '503': controlOk('The store did not answer: status is unavailable, and storeError says why', ref('Health')) },
      { invalid: 'any query parameter' },
    ),
  },
};

export const readyRoute: ControlRoute<SandboxDeps> = {
  method: 'GET',
  path: '/_sandbox/ready',
  api: 'control',
  open: true,
  hosted: 'any',
  // For load balancers, which carry no token: it tells only ready or not, and a hosted sandbox names neither host nor store error.
  handle: (deps) => async (req, res) => {
    checkQuery(req.query, []);
    const ping = deps.readiness.draining ? undefined : await pingStore(deps.store.storage);
    const reason = deps.readiness.draining ? STOPPING : ping?.ok === false ? (deps.hosted ? STORE_SILENT : ping.error) : undefined;
    const instance = deps.hosted ? {} : { instanceId: deps.instanceId };
    res.status(reason === undefined ? 200 : 503).json(reason === undefined ? { ready: true, ...instance } : { ready: false, ...instance, reason });
  },
  doc: {
    operationId: 'ready',
    summary: 'Readiness, for a load balancer',
    description:
      'Needs no token and answers any client, so a load balancer can probe it: 200 when this instance takes requests, 503 while it stops (SIGTERM: it finishes what is in flight) or when its store does not answer within 2 s. It tells nothing but that: a hosted sandbox, and any instance on a database, names neither its host (no instanceId) nor the store\'s error.',
    security: [],
    responses: {
      '200': controlOk('Ready', ref('Readiness')),
      '400': controlError('INVALID_REQUEST: any query parameter'),
      '503': controlOk('Not ready, and why', ref('Readiness')),
    },
  },
};

export const resetRoute: ControlRoute<SandboxDeps> = {
  method: 'POST',
  path: '/_sandbox/reset',
  api: 'control',
  handle: ({ store, faults, refunds, journal, jtis }) => async (_req, res) => {
    await store.reset();
    faults.reset();
    await faults.saved;
    refunds.reload();
    journal.clear();
    jtis.clear();
    res.json({ reset: true, orders: store.orders.size, refunds: store.refunds.size, journal: journal.size, faults: faults.size });
  },
  doc: {
    operationId: 'reset',
    summary: 'Fixtures back; refunds, journal and seen jtis cleared',
    description: 'Brings back the fixtures (menus, orders) and the fault rules of --faults with fresh counters, and clears refunds, the journal and the jti values seen (§5).',
    responses: controlResponses({ '200': controlOk('Reset done', { type: 'object' }) }, { changesState: true }),
  },
};

export const partnersRoute: ControlRoute<SandboxDeps> = {
  method: 'GET',
  path: '/_sandbox/partners',
  api: 'control',
  handle: ({ partner, fixtures }) => (req, res) => {
    checkQuery(req.query, []);
    // The key itself never leaves over HTTP: its fingerprint tells which key the sandbox holds.
    res.json([{ name: partner.name, displayName: fixtures.partner.displayName, keyFingerprint: keyFingerprint(partner.nonProdKey), tokenAudience: SERVICE_AUDIENCE }]);
  },
  operator: (view) => (_req, res) => {
    res.json(view.partners.map((partner) => partner.listing()));
  },
  doc: {
    operationId: 'partners',
    summary: 'The partner: POS name and key fingerprint',
    description: "The POS partner the sandbox takes tokens from: its name (the tokens' iss, §5), the audience they must carry, and a fingerprint of its key, never the key.",
    responses: controlResponses({ '200': controlOk('Partners', { type: 'array', items: { type: 'object' } }) }, { invalid: 'any query parameter' }),
  },
};

export const sandboxSchemas = {
  Health: {
    type: 'object',
    required: ['status', 'version', 'uptimeSeconds'],
    properties: {
      status: { enum: ['ok', 'unavailable'] },
      store: { type: 'string', description: 'Where the state is: the data file, "memory", or the database URL without its password' },
      storeKind: { enum: ['file', 'memory', 'postgres'] },
      storeLatencyMs: { type: 'number', description: 'How long the store took to answer a trivial request, now' },
      storeError: { type: 'string', description: 'Why the store counts as unavailable' },
      instanceId: { type: 'string', description: 'This process: its host name and process id' },
      partners: {
        type: 'array',
        description: "A hosted sandbox (serve --partners), asked with the operator's token alone: each partner's store and sizes",
        items: {
          type: 'object',
          required: ['name', 'status'],
          properties: {
            name: { type: 'string' },
            status: { enum: ['ok', 'unavailable'] },
            storeKind: { enum: ['file', 'memory', 'postgres'] },
            storeLatencyMs: { type: 'number' },
            storeError: { type: 'string' },
            orders: { type: 'integer' },
            refunds: { type: 'integer' },
            journal: { type: 'integer' },
            journalBytes: { type: 'integer' },
            faults: { type: 'integer' },
            quota: ref('QuotaView'),
          },
        },
      },
      version: { type: 'string' },
      uptimeSeconds: { type: 'integer' },
      startedAt: { type: 'string', format: 'date-time' },
      delivery: {
        type: 'object',
        description: 'How orders are delivered to the POS: tries, the timeout of each, the waits between them',
        properties: {
          attempts: { type: 'integer' },
          attemptTimeoutMs: { type: 'integer' },
          retryDelaysMs: { type: 'array', items: { type: 'integer' } },
          posOrderUrl: { type: ['string', 'null'], description: 'Where an order that names no URL goes (--pos-order-url); null: nowhere yet' },
        },
      },
      events: {
        type: 'object',
        description: 'GET /_sandbox/events: the streams open now, the bytes waiting for slow clients (at most 1 MiB each), and how many clients were dropped for reading too slowly',
        properties: { clients: { type: 'integer' }, waitingBytes: { type: 'integer' }, dropped: { type: 'integer' } },
      },
      journal: {
        type: 'object',
        description: 'The journal: entries kept and the most kept, and about how many bytes of bodies and headers they hold, and the most',
        properties: { entries: { type: 'integer' }, limit: { type: 'integer' }, bytes: { type: 'integer' }, byteLimit: { type: 'integer' } },
      },
      quota: ref('QuotaView'),
    },
  },
  QuotaView: {
    type: 'object',
    description: 'What the partner may use (null: no limit), and how many requests each quota refused since the start (docs/hosting.md)',
    required: ['quotas', 'inUse', 'refused'],
    properties: {
      quotas: {
        type: 'object',
        properties: {
          requestsPerSecond: { type: ['integer', 'null'] },
          burst: { type: 'integer' },
          eventStreams: { type: 'integer' },
          harExports: { type: 'integer' },
          harExportsPerHour: { type: ['integer', 'null'] },
          harExportBytesPerSecond: { type: ['integer', 'null'] },
          checklistRunsPerHour: { type: ['integer', 'null'] },
          reportsKept: { type: ['integer', 'null'] },
          reportMaxAgeDays: { type: ['integer', 'null'] },
          heldRequests: { type: 'integer' },
          deliveriesInFlight: { type: 'integer' },
          journalEntries: { type: 'integer' },
          journalBytes: { type: 'integer' },
          bodyBytes: { type: 'integer' },
        },
      },
      inUse: {
        type: 'object',
        description: 'Orders being delivered to the POS now (deliveriesInFlight), and requests fault rules hold now (heldRequests)',
        properties: { deliveries: { type: 'integer' }, heldRequests: { type: 'integer' } },
      },
      refused: {
        type: 'object',
        properties: { requests: { type: 'integer' }, eventStreams: { type: 'integer' }, harExports: { type: 'integer' }, checklistRuns: { type: 'integer' }, heldRequests: { type: 'integer' }, deliveries: { type: 'integer' } },
      },
    },
  },
  Readiness: {
    type: 'object',
    required: ['ready'],
    properties: {
      ready: { type: 'boolean' },
      instanceId: { type: 'string', description: "A laptop's: its host name and process id. A hosted sandbox, or an instance on a database, leaves it out" },
      reason: { type: 'string' },
    },
  },
};
