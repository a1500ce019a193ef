/**
 * The sandbox's OpenAPI document as served, as committed (openapi/openapi.json) and as the tests check every answer
 * against: its schemas are the files the server validates with, its examples the shipped payloads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { faultRuleSchema } from '../faults/fault-rules.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import type { Route } from '../http/route.js';
import { loadMenuUpdateSchemas, type MenuUpdateValidators } from '../menus/menu-update-schemas.js';
import { buildOrder } from '../orders/new-order.js';
import { orderSchema } from '../orders/order-schema.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { openApiDocument } from './openapi-document.js';
import { withExamples, type ExamplePayloads } from './openapi-examples.js';
import { posSideOpenApi } from './pos-side-openapi.js';

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
