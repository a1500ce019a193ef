#!/usr/bin/env node
// Compiled JavaScript from dist/, like the sandbox: one process, so signals reach it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/reference-pos/cli.js', import.meta.url);
if (!existsSync(entry)) {
  console.error(`reference-pos: ${fileURLToPath(entry)} is missing: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}`);
  process.exit(1);
}
await import(entry.href);
