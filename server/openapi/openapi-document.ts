/** The OpenAPI 3.1 description of the whole sandbox: the POS → service API and the control API. */

import { checklistPaths, checklistSchemas } from './openapi-checklist.js';
import { stressPaths, stressSchemas } from './openapi-stress.js';
import { controlOk, controlResponses, getById, json, posOperation, ref, schemaComponents } from './openapi-parts.js';
import { orderModelSchemas, orderPaths, orderStatusOperation } from './openapi-orders.js';
import { faultPaths, faultSchemas } from './openapi-faults.js';
import { journalPaths, journalSchemas } from './openapi-journal.js';
import { pagedOk, pageParameters } from './openapi-paging.js';
import { statePaths, stateSchemas } from './openapi-state.js';

const refundOperation = (mount: string) =>
  posOperation({
    method: 'post',
    name: 'refund',
    mount,
    summary: 'Request a refund (§4.1)',
    description:
      'The POS asks the service to refund an order it created (§4.1). The sandbox checks only what §4.1 rule 1 names: the token (§5), the location header and a non-blank ExternalId; ' +
      'it then accepts the refund for processing and decides it later (PROCESSED or FAILED, shown by GET /_sandbox/refunds), never telling the POS (§1: v2 is asynchronous).',
    body: ref('RefundRequest'),
    ok: 'Accepted for processing; no body. The refund is decided later (GET /_sandbox/refunds).',
    okHeader: ['x-sandbox-refund-id', { schema: { type: 'string' } }],
    invalid: 'INVALID_PAYLOAD: the location header, the body or ExternalId (§4.1, §7), every problem listed',
    envelope: 'OrderErrorEnvelope',
  });

const menuOperation = (mount: string) =>
  posOperation({
    method: 'put',
    name: 'menu',
    mount,
    summary: 'Update item prices and names (§4.2), forms A and B',
    description:
      'The POS pushes new item prices and names (§4.2; only those, rule 1), partial updates preferred (rule 2). ' +
      'Form A carries LocationId (equal to the header) and prices with ServiceType; form B has no LocationId and prices with Service (§2.2). The whole update is checked first: any problem rejects it, and nothing is applied.',
    body: { oneOf: [ref('MenuUpdateFormA'), ref('MenuUpdateFormB')] },
    ok: 'Applied and stored; no body. GET /_sandbox/locations/{id}/menu shows the result.',
    okHeader: ['x-sandbox-menu-changes', { schema: { type: 'integer' }, description: 'How many names and prices changed.' }],
    invalid: 'VALIDATION_ERROR: every problem, each naming its JSON path, an unknown location included (§4.2, §7: the status is the sandbox\'s choice)',
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
        '415 UNSUPPORTED_MEDIA_TYPE for a POST, PUT, PATCH or DELETE whose body is not application/json (no body and no Content-Type is fine). ' +
        'The sandbox is not licensed for use outside its project (UNLICENSED).',
      // No license object: the package is UNLICENSED (package.json), which is no SPDX identifier and has no URL, and
      // OpenAPI tools (swagger-parser) refuse a license with a name alone. redocly.yaml accepts the warning.
    },
    // The address the document was fetched from: an importer then sends its requests where the sandbox runs.
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'POS API', description: 'What a POS calls: refunds (§4.1), menu updates (§4.2) and order status (§4.3), each under /, /v2 and /v1/pos/openapi, with a Bearer JWT (§5).' },
      {
        name: 'Control API',
        description: 'The sandbox itself, under /_sandbox: state, orders to deliver, the journal, fault rules and tokens. Loopback clients only, or --admin-token; always the lowercase envelope.',
      },
    ],
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
      ...statePaths(),
      '/_sandbox/locations': {
        get: {
          operationId: 'locations',
          tags: ['Control API'],
          summary: 'The locations',
          description: 'The merchant locations of the fixtures (the x-service-locationid values, §4), with how many items each menu has.',
          responses: controlResponses({ '200': controlOk('Locations', { type: 'array', items: { type: 'object' } }) }, { invalid: 'any query parameter' }),
        },
      },
      '/_sandbox/locations/{id}/menu': getById(
        'locationMenu',
        "A location's current menu",
        'The menu as the accepted menu updates (§4.2) left it.',
        'The menu',
        { type: 'object' },
        'no location with this id',
      ),
      ...orderPaths(),
      ...faultPaths(),
      '/_sandbox/refunds': {
        get: {
          operationId: 'refunds',
          tags: ['Control API'],
          summary: 'Refunds, newest first, a page at a time',
          description: 'The refunds the POS requested (§4.1), each PENDING, then PROCESSED or FAILED with a reason: what the POS is never told (§1).',
          parameters: [...['location', 'status', 'externalId'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })), ...pageParameters()],
          responses: controlResponses(
            { '200': pagedOk('Refunds', { type: 'array', items: ref('Refund') }) },
            { invalid: 'an unknown query parameter, a bad limit, or an after that names no refund' },
          ),
        },
      },
      ...journalPaths(),
      ...checklistPaths(),
      ...stressPaths(),
      '/_sandbox/tokens': {
        post: {
          operationId: 'mintToken',
          tags: ['Control API'],
          summary: 'Mint a POS → service token',
          description: "A valid POS → service token for a location, signed with the partner's key, with exactly the claims of §5 (sub, jti, nbf, exp, iss, aud), for tools that cannot sign one.",
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['locationId'],
              additionalProperties: false,
              properties: { locationId: { type: 'string' }, ttl: { type: 'integer', minimum: 1, maximum: 86400 } },
            }),
          },
          responses: controlResponses(
            {
              '201': controlOk('The token and its claims', {
                type: 'object',
                properties: { token: { type: 'string' }, header: { type: 'object' }, claims: { type: 'object' }, expiresAt: { type: 'string', format: 'date-time' } },
              }),
            },
            { invalid: 'a body that is not {locationId, ttl?}, every problem listed', readsBody: true, changesState: true },
          ),
        },
      },
      '/_sandbox/tokens/check': {
        post: {
          operationId: 'checkToken',
          tags: ['Control API'],
          summary: 'Judge a POS → service token, rule by rule',
          description:
            "What the POS API would answer a call carrying this token (authenticated, or 401 with its body), and each §5 rule passed, failed (every reason) or not judged (why). The claims are judged even where a 401 stops at a broken signature or alg. Nothing is recorded: the token's jti is not used up.",
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['token'],
              additionalProperties: false,
              properties: { token: { type: 'string', maxLength: 16384, description: "A JWT, or a whole 'Bearer <JWT>' header value." } },
            }),
          },
          responses: controlResponses(
            {
              '200': controlOk('The answer, the decoded token and every rule', {
                type: 'object',
                required: ['answer', 'rules', 'findings'],
                properties: {
                  answer: {
                    type: 'object',
                    required: ['authenticated'],
                    properties: { authenticated: { type: 'boolean' }, status: { const: 401 }, body: ref('OrderErrorEnvelope') },
                  },
                  header: { type: 'object' },
                  claims: { type: 'object' },
                  rules: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['rule', 'asks', 'verdict', 'details'],
                      properties: {
                        rule: { enum: ['format', 'alg', 'payload', 'signature', 'sub', 'jti', 'iss', 'aud', 'nbf', 'exp'] },
                        asks: { type: 'string' },
                        verdict: { enum: ['pass', 'fail', 'not-judged'] },
                        details: { type: 'array', items: { type: 'string' } },
                      },
                    },
                  },
                  findings: { type: 'array', items: { type: 'object', required: ['code', 'message', 'section'], properties: { code: { type: 'string' }, message: { type: 'string' }, section: { type: 'string' } } } },
                },
              }),
            },
            { invalid: 'a body that is not {token}, or a token over 16 KiB', readsBody: true, changesState: true },
          ),
        },
      },
      '/_sandbox/openapi.json': {
        get: {
          operationId: 'openapi',
          tags: ['Control API'],
          summary: 'This document',
          description: 'This OpenAPI 3.1 document, with servers naming the address it was fetched from; openapi/openapi.json is the same for the default address.',
          responses: controlResponses({ '200': controlOk('OpenAPI 3.1', { type: 'object' }) }),
        },
      },
    },
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The control API: none from a loopback client; the --admin-token value when the sandbox was started with one. A hosted sandbox (serve --partners, docs/hosting.md) always takes a token: a partner's admin token, or the operator's with the header x-sandbox-partner naming the partner.",
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
        ...checklistSchemas(),
        ...stressSchemas(),
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
        ...stateSchemas(),
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
        ...journalSchemas(),
      },
    },
  });
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
