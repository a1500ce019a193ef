#!/usr/bin/env node
// The sandbox runs compiled JavaScript from dist/ (npm run build; npm install runs it): compiling the TypeScript
// sources at each start cost about a second.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(entry)) {
  console.error(`pos-sandbox: ${fileURLToPath(entry)} is missing: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}`);
  process.exit(1);
}
await import(entry.href);
