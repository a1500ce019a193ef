/** The OpenAPI 3.1 document of the whole sandbox, made from the route table: every declared endpoint and the components they name. */
import { checklistSchemas } from '../checklist/checklist-routes.js';
import { sandboxSchemas } from '../control/sandbox-routes.js';
import { faultSchemas } from '../faults/fault-routes.js';
import { POS_MOUNTS, type Route } from '../http/route.js';
import { journalSchemas } from '../journal/journal-schemas.js';
import { menuSchemas } from '../menus/menu-routes.js';
import { migrationSchemas } from '../migration/migration-routes.js';
import { orderSchema } from '../orders/order-schema.js';
import { orderSchemas } from '../orders/order-routes.js';
import { refundSchemas } from '../refunds/refund-routes.js';
import { stressSchemas } from '../stress/stress-routes.js';
import { posOperation } from './openapi-parts.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { faultRuleSchema } from '../faults/fault-rules.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { loadMenuUpdateSchemas, type MenuUpdateValidators } from '../menus/menu-update-schemas.js';
import { buildOrder } from '../orders/new-order.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { withExamples, type ExamplePayloads } from './openapi-examples.js';
import { posSideOpenApi } from './pos-side-openapi.js';

/** What the document is made of besides the routes: the schemas the server validates with, and where it is served. */
export interface DocumentSources {
  version: string;
  menuSchemas: { A: object; B: object };
  orderSchema: object;
  faultRuleSchema: object;
  serverUrl?: string;
}

type Operation = { operationId?: string; parameters?: Array<{ name: string; example?: unknown }>; examples?: Record<string, unknown> };

/** An Express path as OpenAPI writes it: `/orders/:id` → `/orders/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Every documented route as a path item, in the table's order; a POS route once under each mount. */
function pathsOf(routes: ReadonlyArray<Route<never>>): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  const put = (path: string, method: string, operation: object) => ((paths[path] ??= {})[method] = operation);
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (route.api === 'pos') {
      for (const mount of POS_MOUNTS) put(`${mount === '/' ? '' : mount}${route.path}`, method, posOperation({ ...route.doc, mount: mount === '/' ? '' : mount }));
      continue;
    }
    if (!('doc' in route) || route.doc === undefined) continue;
    // A copy: a parameter object may be shared by several routes, each with its own example.
    const { operationId, examples, ...rest } = structuredClone(route.doc) as Operation;
    for (const parameter of rest.parameters ?? []) if (parameter.example === undefined && examples?.[parameter.name] !== undefined) parameter.example = examples[parameter.name];
    put(openApiPath(route.path), method, { operationId, tags: ['Control API'], ...rest });
  }
  return paths;
}

/** The document of `routes`, with the components they name. */
export function openApiDocument(routes: ReadonlyArray<Route<never>>, sources: DocumentSources): object {
  const { version, serverUrl = 'http://127.0.0.1:4100' } = sources;
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
      // No license object: UNLICENSED is no SPDX identifier, and swagger-parser refuses a license with a name alone (redocly.yaml accepts the warning).
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
    paths: pathsOf(routes),
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
        RefundRequest: refundSchemas.RefundRequest,
        ...menuSchemas(sources.menuSchemas),
        ...orderSchemas(sources.orderSchema),
        ...faultSchemas(sources.faultRuleSchema),
        ...migrationSchemas,
        ...checklistSchemas,
        ...stressSchemas,
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
        ...sandboxSchemas,
        Refund: refundSchemas.Refund,
        ...journalSchemas,
      },
    },
  });
}

/** Every control operation states its security (none from loopback, or the admin token): linters flag one that states nothing, and importers guess. */
function withControlSecurity<T extends { paths: Record<string, Record<string, object>> }>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith('/_sandbox')) continue;
    for (const operation of Object.values(operations) as Array<{ security?: unknown }>) operation.security ??= [{}, { adminToken: [] }];
  }
  return document;
}

/** The document as served, as committed (openapi/openapi.json) and as the tests judge every answer by: its schemas the server's own, its examples the shipped payloads. */

let payloads: ExamplePayloads | undefined;

/** Read once: the example payloads are the shipped files, whatever fixtures this sandbox runs with. */
function examplePayloads(): ExamplePayloads {
  if (payloads !== undefined) return payloads;
  const read = (file: string) => JSON.parse(readFileSync(join(PACKAGE_ROOT, 'menu-template', file), 'utf8')) as ExamplePayloads['menuFormA'];
  const fixtures = loadFixtures(join(PACKAGE_ROOT, 'fixtures'));
  const location = fixtures.locations.find((candidate) => candidate.id === 'loc-std-001')!;
  const order = buildOrder({ template: fixtures.templates.standard!, location, orderId: 'ord-std-0004', requestId: 'req-3b1f7c2e-5d4a-4e8b-9c61-0a2f4d6e8b10', createdAt: '2026-11-21T10:00:00.000Z' });
  payloads = { menuFormA: read('form-a-partial-update.json'), menuFormB: read('form-b-partial-update.json'), order };
  return payloads;
}

/** The document of `routes`; `serverUrl`: where it was fetched from (default http://127.0.0.1:4100). */
export function documentOf(routes: ReadonlyArray<Route<never>>, options: { menuSchemas?: MenuUpdateValidators; serverUrl?: string } = {}): object {
  const menuSchemas = options.menuSchemas ?? loadMenuUpdateSchemas();
  const sources = { version: VERSION, menuSchemas: { A: menuSchemas.A.schema as object, B: menuSchemas.B.schema as object }, orderSchema: orderSchema().schema, faultRuleSchema: faultRuleSchema().schema, serverUrl: options.serverUrl };
  return withExamples(openApiDocument(routes, sources), examplePayloads());
}

/** The document of what the POS serves (openapi/pos-side.json): the order delivery and the driver contract. */
export function posSideDocument(): object {
  return posSideOpenApi(VERSION, orderSchema().schema, examplePayloads().order);
}
