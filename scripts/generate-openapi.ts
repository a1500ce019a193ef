/**
 * Writes openapi/openapi.json: the document GET /_sandbox/openapi.json serves, as a file a user can import or lint
 * without starting the sandbox (`npm run generate:openapi`). A test fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandboxOpenApi } from '../server/control/sandbox-openapi.js';
import { PACKAGE_ROOT } from '../server/version.js';

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'openapi', 'openapi.json');

/** The document as served to a client of the default address, http://127.0.0.1:4100. */
export function renderOpenApi(): string {
  return `${JSON.stringify(sandboxOpenApi(), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(OPENAPI_FILE, renderOpenApi());
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
