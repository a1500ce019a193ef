/**
 * Writes openapi/openapi.json: the document GET /_sandbox/openapi.json serves, as a file a user can import or lint
 * without starting the sandbox (`npm run generate:openapi`). A test fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openApiDocument } from '../server/control/openapi-document.js';
import { faultRuleSchema } from '../server/faults/check-fault-rules.js';
import { loadMenuUpdateSchemas } from '../server/fixtures/menu-update-schemas.js';
import { orderSchema } from '../server/fixtures/order-schema.js';
import { PACKAGE_ROOT, VERSION } from '../server/version.js';

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'openapi', 'openapi.json');

/** The document as served to a client of the default address, http://127.0.0.1:4100. */
export function renderOpenApi(): string {
  const menuSchemas = loadMenuUpdateSchemas();
  const document = openApiDocument(VERSION, { A: menuSchemas.A.schema as object, B: menuSchemas.B.schema as object }, orderSchema().schema, faultRuleSchema().schema);
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(OPENAPI_FILE, renderOpenApi());
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
