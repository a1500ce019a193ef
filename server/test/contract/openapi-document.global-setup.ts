/**
 * Builds dist/ (npm run build), which every spawned pos-sandbox and reference-pos runs, so no test runs output older
 * than the sources. Then builds the sandbox's OpenAPI document once per jest run and leaves it in a temporary file for
 * check-responses.setup.ts: building it (its schemas compiled, its examples made) costs about half a second, and
 * every test file paid that when each built its own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import type * as SandboxOpenApiModule from '../../control/sandbox-openapi.js';
import type * as DocumentFileModule from './openapi-document-file.js';

// jest runs this file outside its module registry, where `.js` does not name the `.ts` source: tsx loads the sources.

export default async function buildOpenApiDocumentOnce(): Promise<void> {
  // A specifier in a variable: scripts/build.js is plain JavaScript, which tsc is not asked to type.
  const buildScript = new URL('../../../scripts/build.js', import.meta.url).href;
  await ((await import(buildScript)) as { buildDist: () => Promise<void> }).buildDist();
  const { sandboxOpenApi } = (await tsImport('../../control/sandbox-openapi.ts', import.meta.url)) as typeof SandboxOpenApiModule;
  const { OPENAPI_DOCUMENT_ENV } = (await tsImport('./openapi-document-file.ts', import.meta.url)) as typeof DocumentFileModule;
  const file = join(mkdtempSync(join(tmpdir(), 'pos-sandbox-openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(sandboxOpenApi()));
  // Workers inherit the environment of the process that runs globalSetup.
  process.env[OPENAPI_DOCUMENT_ENV] = file;
}
