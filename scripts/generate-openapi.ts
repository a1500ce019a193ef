/**
 * Writes openapi/openapi.json: the document GET /_sandbox/openapi.json serves, as a file a user can import or lint
 * without starting the sandbox (`npm run generate:openapi`). A test fails when the committed file is stale, and so
 * does `--check` (the first step of `npm run lint:openapi`), which writes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandboxOpenApi } from '../server/openapi/sandbox-openapi.js';
import { PACKAGE_ROOT } from '../server/version.js';

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'openapi', 'openapi.json');

/** The document as served to a client of the default address, http://127.0.0.1:4100. */
export function renderOpenApi(): string {
  return `${JSON.stringify(sandboxOpenApi(), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--check')) {
    // The linter reads the file: a stale one would pass while the served document fails.
    if (readFileSync(OPENAPI_FILE, 'utf8') !== renderOpenApi()) {
      process.stderr.write(`${OPENAPI_FILE} is stale: run npm run generate:openapi and commit it\n`);
      process.exit(1);
    }
    process.stdout.write(`${OPENAPI_FILE} is the current document\n`);
  } else {
    writeFileSync(OPENAPI_FILE, renderOpenApi());
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  }
}
