#!/usr/bin/env node
// Compiled JavaScript from dist/ (npm run build, which npm install runs): compiling the sources at each start cost a second.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(entry)) {
  console.error(`pos-sandbox: ${fileURLToPath(entry)} is missing: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}`);
  process.exit(1);
}
await import(entry.href);
