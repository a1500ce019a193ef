/** The OpenAPI paths and schemas of the sandbox's state: health, readiness, reset and the partner. */
import { controlError, controlOk, controlResponses, json, ref } from './openapi-parts.js';

export function statePaths(): Record<string, object> {
  return {
    ...secretsCheckPath(),
    '/_sandbox/health': {
      get: {
        operationId: 'health',
        tags: ['Control API'],
        summary: 'Status, version and uptime',
        description:
          'Whether the sandbox is up, with its version, store (what holds the state, and how long it took to answer a trivial request now), instance id, refund delay, delivery policy, journal size, fault rules in force, event-stream load, and the quotas with how often each refused. A partner of a hosted sandbox (serve --partners) is shown nothing of the store or the host: no store, storeKind, storeLatencyMs or instanceId, and a storeError that names no cause. 503 with the same body when the store does not answer within 2 s.',
        responses: controlResponses(
          { '200': controlOk('The sandbox is up', ref('Health')), '503': controlOk('The store did not answer: status is unavailable, and storeError says why', ref('Health')) },
          { invalid: 'any query parameter' },
        ),
      },
    },
    '/_sandbox/ready': {
      get: {
        operationId: 'ready',
        tags: ['Control API'],
        summary: 'Readiness, for a load balancer',
        description:
          "Needs no token and answers any client, so a load balancer can probe it: 200 when this instance takes requests, 503 while it stops (SIGTERM: it finishes what is in flight) or when its store does not answer within 2 s. It tells nothing but that: a hosted sandbox, and any instance on a database, names neither its host (no instanceId) nor the store's error.",
        security: [],
        responses: {
          '200': controlOk('Ready', ref('Readiness')),
          '400': controlError('INVALID_REQUEST: any query parameter'),
          '503': controlOk('Not ready, and why', ref('Readiness')),
        },
      },
    },
    '/_sandbox/reset': {
      post: {
        operationId: 'reset',
        tags: ['Control API'],
        summary: 'Fixtures back; refunds, journal and seen jtis cleared',
        description: 'Brings back the fixtures (menus, orders) and the fault rules of --faults with fresh counters, and clears refunds, the journal and the jti values seen (§5).',
        responses: controlResponses({ '200': controlOk('Reset done', { type: 'object' }) }, { changesState: true }),
      },
    },
    '/_sandbox/partners': {
      get: {
        operationId: 'partners',
        tags: ['Control API'],
        summary: 'The partner: POS name and key fingerprint',
        description: "The POS partner the sandbox takes tokens from: its name (the tokens' iss, §5), the audience they must carry, and a fingerprint of its key, never the key.",
        responses: controlResponses({ '200': controlOk('Partners', { type: 'array', items: { type: 'object' } }) }, { invalid: 'any query parameter' }),
      },
    },
  };
}

/** POST /_sandbox/secrets/check: which texts hold the partner's key or a token (the checklist asks it of a report's fields). */
function secretsCheckPath(): Record<string, object> {
  return {
    '/_sandbox/secrets/check': {
      post: {
        operationId: 'checkSecrets',
        tags: ['Control API'],
        summary: "Which texts hold the partner's key or a token",
        description:
          "The names of the texts that hold the partner's non-prod key or a signed token, as the redaction of every output finds them (any letter case, every encoding it decodes). The checklist asks it of a report's fields before a run. It answers names only, never a text.",
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['texts'],
            additionalProperties: false,
            properties: { texts: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', maxLength: 4096 } } },
          }),
        },
        responses: controlResponses(
          { '200': controlOk('The names of the texts that hold one', { type: 'object', required: ['holding'], properties: { holding: { type: 'array', items: { type: 'string' } } } }) },
          { invalid: 'a body that is not {"texts": {...}}, more than 50 texts, or one that is not a string of at most 4096 characters', changesState: true, readsBody: true },
        ),
      },
    },
  };
}

export function stateSchemas(): Record<string, object> {
  return {
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
      required: ['quotas', 'refused'],
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
            journalEntries: { type: 'integer' },
            journalBytes: { type: 'integer' },
            bodyBytes: { type: 'integer' },
          },
        },
        refused: {
          type: 'object',
          properties: { requests: { type: 'integer' }, eventStreams: { type: 'integer' }, harExports: { type: 'integer' }, checklistRuns: { type: 'integer' }, heldRequests: { type: 'integer' } },
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
}
