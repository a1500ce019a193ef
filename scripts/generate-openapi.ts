/** Writes openapi/openapi.json and openapi/pos-side.json (`npm run generate:openapi`); `--check` writes nothing and fails on a stale file. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { posSideDocument } from '../server/openapi/openapi-document.js';
import { sandboxOpenApi } from '../server/routes.js';
import { PACKAGE_ROOT } from '../server/version.js';

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'openapi', 'openapi.json');
export const POS_SIDE_FILE = join(PACKAGE_ROOT, 'openapi', 'pos-side.json');

/** The document as served to a client of the default address, http://127.0.0.1:4100. */
export function renderOpenApi(): string {
  return `${JSON.stringify(sandboxOpenApi(), null, 2)}\n`;
}

export function renderPosSide(): string {
  return `${JSON.stringify(posSideDocument(), null, 2)}\n`;
}

const FILES: Array<[string, () => string]> = [
  [OPENAPI_FILE, renderOpenApi],
  [POS_SIDE_FILE, renderPosSide],
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, render] of FILES) {
    if (process.argv.includes('--check')) {
      // The linter reads the file: a stale one would pass while the served document fails.
      if (readFileSync(file, 'utf8') !== render()) {
        process.stderr.write(`${file} is stale: run npm run generate:openapi and commit it\n`);
        process.exit(1);
      }
      process.stdout.write(`${file} is the current document\n`);
    } else {
      writeFileSync(file, render());
      process.stdout.write(`wrote ${file}\n`);
    }
  }
}
