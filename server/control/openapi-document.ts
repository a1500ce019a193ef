/** The OpenAPI 3.1 description of the whole sandbox: the POS → service API and the control API. */

import { controlError, controlOk, getById, json, posOperation, ref, schemaComponents } from './openapi-parts.js';
import { orderModelSchemas, orderPaths, orderStatusOperation } from './openapi-orders.js';
import { faultPaths, faultSchemas } from './openapi-faults.js';
import { pagedOk, pageParameters } from './openapi-paging.js';
import { JOURNAL_PAGE } from './paging.js';

const refundOperation = (mount: string) =>
  posOperation({
    method: 'post',
    name: 'refund',
    mount,
    summary: 'Request a refund (§4.1)',
    body: ref('RefundRequest'),
    ok: 'Accepted for processing; no body. The refund is decided later (GET /_sandbox/refunds).',
    okHeader: ['x-sandbox-refund-id', { schema: { type: 'string' } }],
    invalid: 'INVALID_PAYLOAD: location header, body or ExternalId',
    envelope: 'OrderErrorEnvelope',
  });

const menuOperation = (mount: string) =>
  posOperation({
    method: 'put',
    name: 'menu',
    mount,
    summary: 'Update item prices and names (§4.2), forms A and B',
    description:
      'Form A carries LocationId (equal to the header) and prices with ServiceType; form B has no LocationId and prices with Service. The whole update is checked first: any problem rejects it, and nothing is applied.',
    body: { oneOf: [ref('MenuUpdateFormA'), ref('MenuUpdateFormB')] },
    ok: 'Applied and stored; no body. GET /_sandbox/locations/{id}/menu shows the result.',
    okHeader: ['x-sandbox-menu-changes', { schema: { type: 'integer' }, description: 'How many names and prices changed.' }],
    invalid: 'VALIDATION_ERROR: every problem, each naming its JSON path',
    envelope: 'MenuErrorEnvelope',
  });

/** `menuSchemas` are the JSON Schemas of menu-template/schemas, hoisted into components/schemas; `serverUrl` the sandbox's address. */
export function openApiDocument(version: string, menuSchemas: { A: object; B: object }, orderSchema: object, faultRuleSchema: object, serverUrl = 'http://127.0.0.1:4100'): object {
  return withControlSecurity({
    openapi: '3.1.0',
    info: {
      title: 'POS Sandbox',
      version,
      description:
        'A laptop sandbox of the POS integration interface (Open API v2). The POS API answers as the service does; the control API under /_sandbox shows and steers the sandbox (loopback clients only unless --admin-token is set). ' +
        'The control API refuses what a web page could send it: 403 FORBIDDEN for an Origin other than its own, for Sec-Fetch-Site: cross-site, and (without --admin-token) for a Host other than localhost, *.localhost, 127.x.x.x, [::1] or the --host address; ' +
        '415 UNSUPPORTED_MEDIA_TYPE for a POST, PUT, PATCH or DELETE whose body is not application/json (no body and no Content-Type is fine).',
    },
    // The address the document was fetched from: an importer then sends its requests where the sandbox runs.
    servers: [{ url: serverUrl }],
    tags: [{ name: 'POS API' }, { name: 'Control API' }],
    paths: {
      '/order/refund': refundOperation(''),
      '/v2/order/refund': refundOperation('/v2'),
      '/v1/pos/openapi/order/refund': refundOperation('/v1/pos/openapi'),
      '/menu': menuOperation(''),
      '/v2/menu': menuOperation('/v2'),
      '/v1/pos/openapi/menu': menuOperation('/v1/pos/openapi'),
      '/order/status': orderStatusOperation(''),
      '/v2/order/status': orderStatusOperation('/v2'),
      '/v1/pos/openapi/order/status': orderStatusOperation('/v1/pos/openapi'),
      '/_sandbox/health': {
        get: {
          operationId: 'health',
          tags: ['Control API'],
          summary: 'Status, version and uptime',
          responses: { '200': controlOk('The sandbox is up', ref('Health')), '403': controlError },
        },
      },
      '/_sandbox/reset': {
        post: {
          operationId: 'reset',
          tags: ['Control API'],
          summary: 'Fixtures back; refunds, journal and seen jtis cleared',
          responses: { '200': controlOk('Reset done', { type: 'object' }) },
        },
      },
      '/_sandbox/partners': {
        get: { operationId: 'partners', tags: ['Control API'], summary: 'The partner: POS name and key fingerprint', responses: { '200': controlOk('Partners', { type: 'array', items: { type: 'object' } }) } },
      },
      '/_sandbox/locations': {
        get: { operationId: 'locations', tags: ['Control API'], summary: 'The locations', responses: { '200': controlOk('Locations', { type: 'array', items: { type: 'object' } }) } },
      },
      '/_sandbox/locations/{id}/menu': getById('locationMenu', "A location's current menu", 'The menu', { type: 'object' }),
      ...orderPaths(),
      ...faultPaths(),
      '/_sandbox/refunds': {
        get: {
          operationId: 'refunds',
          tags: ['Control API'],
          summary: 'Refunds, newest first, a page at a time',
          parameters: [...['location', 'status', 'externalId'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })), ...pageParameters()],
          responses: { '200': pagedOk('Refunds', { type: 'array', items: ref('Refund') }), '400': controlError },
        },
      },
      '/_sandbox/journal': {
        get: {
          operationId: 'journal',
          tags: ['Control API'],
          summary: `Journal entries, newest first, a page at a time (${JOURNAL_PAGE.defaultLimit} unless limit says otherwise)`,
          parameters: [...journalParameters(), ...pageParameters('before', JOURNAL_PAGE)],
          responses: { '200': pagedOk('Entries', { type: 'array', items: ref('JournalEntry') }), '400': controlError },
        },
        delete: { operationId: 'clearJournal', tags: ['Control API'], summary: 'Clear the journal', responses: { '200': controlOk('Cleared', { type: 'object' }) } },
      },
      '/_sandbox/journal.har': {
        get: {
          operationId: 'journalHar',
          tags: ['Control API'],
          summary: 'The journal as HAR 1.2, oldest first: all of it (at most --journal-limit entries), not paged',
          parameters: [...journalParameters(), { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 }, description: 'At most this many of the newest entries' }],
          responses: { '200': controlOk('A HAR log', { type: 'object', required: ['log'] }) },
        },
      },
      '/_sandbox/journal/{id}': getById('journalEntry', 'One journal entry', 'The entry', ref('JournalEntry')),
      '/_sandbox/tokens': {
        post: {
          operationId: 'mintToken',
          tags: ['Control API'],
          summary: 'Mint a POS → service token',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['locationId'],
              additionalProperties: false,
              properties: { locationId: { type: 'string' }, ttl: { type: 'integer', minimum: 1, maximum: 86400 } },
            }),
          },
          responses: {
            '201': controlOk('The token and its claims', {
              type: 'object',
              properties: { token: { type: 'string' }, header: { type: 'object' }, claims: { type: 'object' }, expiresAt: { type: 'string', format: 'date-time' } },
            }),
            '400': controlError,
          },
        },
      },
      '/_sandbox/openapi.json': {
        get: { operationId: 'openapi', tags: ['Control API'], summary: 'This document', responses: { '200': controlOk('OpenAPI 3.1', { type: 'object' }) } },
      },
    },
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The control API: none from a loopback client; the --admin-token value when the sandbox was started with one.',
        },
        posToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "HS256 with the partner's non-prod key; claims sub, jti, nbf, exp, iss = POS name, aud = io.service.pos.brokers.openapi (§5).",
        },
      },
      schemas: {
        RefundRequest: {
          type: 'object',
          required: ['ExternalId'],
          // pattern: the sandbox refuses an ExternalId of white space only, and the document says so.
          properties: { ExternalId: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S', description: 'The ID the POS returned for the order (§2.1); not blank.' } },
        },
        // Hoisted like the order and fault schemas: tools resolve an embedded schema's #/definitions/… against
        // the document root, not against its $id, and fail on every $ref inside it.
        ...schemaComponents('MenuUpdateFormA', menuSchemas.A),
        ...schemaComponents('MenuUpdateFormB', menuSchemas.B),
        ...orderModelSchemas(orderSchema),
        ...faultSchemas(faultRuleSchema),
        MenuErrorEnvelope: {
          type: 'object',
          required: ['errors'],
          properties: {
            errors: { type: 'array', items: { type: 'object', required: ['Code', 'Message'], properties: { Code: { type: 'string' }, Message: { type: 'string' } } } },
          },
        },
        OrderErrorEnvelope: {
          type: 'object',
          required: ['errors'],
          properties: {
            errors: { type: 'array', items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
        Health: {
          type: 'object',
          required: ['status', 'version', 'uptimeSeconds'],
          properties: {
            status: { const: 'ok' },
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
          },
        },
        Refund: {
          type: 'object',
          required: ['id', 'externalId', 'locationId', 'status', 'acceptedAt', 'dueAt'],
          properties: {
            id: { type: 'string' },
            externalId: { type: 'string' },
            locationId: { type: 'string' },
            status: { enum: ['PENDING', 'PROCESSED', 'FAILED'] },
            reason: { enum: ['UNKNOWN_LOCATION', 'ORDER_NOT_FOUND', 'ORDER_NOT_ACCEPTED', 'ALREADY_REFUNDED'] },
            detail: { type: 'string' },
            requestId: { type: 'string' },
            journalId: { type: 'string' },
            acceptedAt: { type: 'string', format: 'date-time' },
            dueAt: { type: 'string', format: 'date-time' },
            processedAt: { type: 'string', format: 'date-time' },
          },
        },
        JournalEntry: {
          type: 'object',
          required: ['id', 'requestId', 'time', 'method', 'path', 'request', 'response', 'latencyMs', 'findings'],
          properties: {
            id: { type: 'string' },
            requestId: { type: 'string' },
            time: { type: 'string', format: 'date-time' },
            method: { type: 'string' },
            path: { type: 'string' },
            locationId: { type: 'string' },
            partner: { type: 'string' },
            token: {
              type: 'object',
              description: 'Header and claims of the token, and its sha256; never the signature.',
              properties: { header: { type: 'object' }, claims: { type: 'object' }, sha256: { type: 'string' } },
            },
            request: { type: 'object' },
            response: { type: 'object' },
            latencyMs: { type: 'number' },
            findings: {
              type: 'array',
              items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, section: { type: 'string' } } },
            },
            direction: { enum: ['inbound', 'outbound'], description: 'outbound: the sandbox delivered an order to the POS.' },
            url: { type: 'string', description: 'Outbound: where the order went.' },
            orderId: { type: 'string' },
            delivery: { type: 'object', description: 'Outbound: dispatch, attempt, of, the verdict on the reply, and copy (1, 2) for a duplicate delivery.' },
            fault: {
              type: 'object',
              description: 'The fault rule that acted on this request or try.',
              required: ['rule', 'kind', 'source'],
              properties: { rule: { type: 'string' }, kind: { type: 'string' }, source: { enum: ['api', 'file', 'header'] }, description: { type: 'string' } },
            },
            menuUpdate: {
              type: 'object',
              description: 'An accepted PUT /menu: its form, location, and every name and price it changed (from → to).',
              properties: { form: { enum: ['A', 'B'] }, locationId: { type: 'string' }, changes: { type: 'array', items: { type: 'object' } } },
            },
          },
        },
      },
    },
  });
}

function journalParameters() {
  return [
    { name: 'path', in: 'query', schema: { type: 'string' }, description: 'Entries whose path contains this' },
    { name: 'status', in: 'query', schema: { type: 'string' }, description: 'A status (401) or a class (4xx)' },
    { name: 'location', in: 'query', schema: { type: 'string' } },
    { name: 'since', in: 'query', schema: { type: 'string' }, description: 'ISO time or ms since the epoch' },
    { name: 'after', in: 'query', schema: { type: 'string', pattern: '^j-\\d+$' }, description: 'Entries newer than this journal id (j-000042): what happened since an entry you have seen' },
    { name: 'direction', in: 'query', schema: { enum: ['inbound', 'outbound'] } },
    { name: 'order', in: 'query', schema: { type: 'string' }, description: 'Entries about this OrderId' },
    { name: 'fault', in: 'query', schema: { type: 'string' }, description: 'true: entries a fault acted on; false: the others; else a rule id' },
  ];
}

/**
 * Every control operation states its security: none from a loopback client, or the admin token (`{}` in the
 * list is "no auth"). Linters flag an operation that states nothing, and importers then guess.
 */
function withControlSecurity<T extends { paths: Record<string, Record<string, object>> }>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith('/_sandbox')) continue;
    for (const operation of Object.values(operations) as Array<{ security?: unknown }>) operation.security ??= [{}, { adminToken: [] }];
  }
  return document;
}
