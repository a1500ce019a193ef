/**
 * Builds dist/ (npm run build), which every spawned pos-sandbox and reference-pos runs, so no test runs output older
 * than the sources. Then builds the sandbox's OpenAPI document once per jest run and leaves it in a temporary file for
 * check-responses.setup.ts: building it (its schemas compiled, its examples made) costs about half a second, and
 * every test file paid that when each built its own. The validators of its answer bodies are compiled here too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import type * as SandboxOpenApiModule from '../../control/sandbox-openapi.js';
import type * as DocumentFileModule from './openapi-document-file.js';
import type * as ResponseContractModule from './response-contract.js';
import type * as PostgresModule from '../postgres.js';

// jest runs this file outside its module registry, where `.js` does not name the `.ts` source: tsx loads the sources.

export default async function buildOpenApiDocumentOnce(): Promise<void> {
  // The run's PostgreSQL server starts meanwhile (postgres.ts): its initdb waits mostly on the disk.
  const postgres = startRunPostgres();
  // A specifier in a variable: scripts/build.js is plain JavaScript, which tsc is not asked to type.
  const buildScript = new URL('../../../scripts/build.js', import.meta.url).href;
  await ((await import(buildScript)) as { buildDist: () => Promise<void> }).buildDist();
  const { sandboxOpenApi } = (await tsImport('../../control/sandbox-openapi.ts', import.meta.url)) as typeof SandboxOpenApiModule;
  const { OPENAPI_DOCUMENT_ENV } = (await tsImport('./openapi-document-file.ts', import.meta.url)) as typeof DocumentFileModule;
  const { bodyValidatorsModule } = (await tsImport('./response-contract.ts', import.meta.url)) as typeof ResponseContractModule;
  const { BODY_VALIDATORS_FILE } = (await tsImport('./openapi-document-file.ts', import.meta.url)) as typeof DocumentFileModule;
  const document = sandboxOpenApi();
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  // And its body validators, compiled once here rather than in every test file (response-contract.ts says how).
  const { resolve } = createRequire(import.meta.url);
  writeFileSync(join(dir, BODY_VALIDATORS_FILE), bodyValidatorsModule(document as Parameters<typeof bodyValidatorsModule>[0], resolve));
  // Workers inherit the environment of the process that runs globalSetup.
  process.env[OPENAPI_DOCUMENT_ENV] = file;
  await postgres;
}

/**
 * Where the PostgreSQL suites run (server binaries installed, or required), one server for the whole run; its URL goes
 * to the workers by the environment, and globalTeardown stops it. Where they are required, a server that cannot
 * start fails the run.
 */
async function startRunPostgres(): Promise<void> {
  const { RUN_POSTGRES_TESTS, startPostgres, POSTGRES_URL_ENV } = (await tsImport('../postgres.ts', import.meta.url)) as typeof PostgresModule;
  if (!RUN_POSTGRES_TESTS) return;
  const server = await startPostgres();
  (globalThis as { posSandboxPostgres?: PostgresModule.PostgresServer }).posSandboxPostgres = server;
  process.env[POSTGRES_URL_ENV] = server.url;
}
