/**
 * Builds dist/ (npm run build), which every spawned pos-sandbox and reference-pos runs, so no test runs output older
 * than the sources. Meanwhile builds the sandbox's OpenAPI document once per jest run and leaves it in a temporary file
 * for check-responses.setup.ts: building it (its schemas compiled, its examples made) costs about half a second, and
 * every test file paid that when each built its own. The validators of its answer bodies are compiled here too, or
 * kept from an earlier run. And it starts the run's PostgreSQL server, which goes on starting after it returns.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type * as SandboxOpenApiModule from '../../routes.js';
import type * as DocumentFileModule from './openapi-document-file.js';
import type * as ResponseContractModule from './response-contract.js';
import type * as PostgresModule from '../postgres.js';
import type * as BodyValidatorsCacheModule from './body-validators-cache.js';

// jest runs this file outside its module registry, where `.js` does not name the `.ts` source: tsx loads the sources.

export default async function buildOpenApiDocumentOnce(): Promise<void> {
  // The run's PostgreSQL server starts meanwhile, and goes on starting after this setup (postgres.ts).
  const postgres = startRunPostgres();
  // A specifier in a variable: scripts/build.js is plain JavaScript, which tsc is not asked to type. esbuild works in
  // a process of its own while the document is built here.
  const buildScript = new URL('../../../scripts/build.js', import.meta.url).href;
  const build = import(buildScript).then((module: { buildDist: () => Promise<void> }) => module.buildDist());
  await Promise.all([build, writeDocument()]);
  await postgres;
}

/** Builds the OpenAPI document and its body validators, into a temporary folder the workers find by the environment. */
async function writeDocument(): Promise<void> {
  // The sources below load the validators built, as the tests do (use-built-validators.ts); one the build is still
  // writing (a schema just edited) is not there yet, and is compiled, as where there is no build.
  process.env.POS_SANDBOX_BUILT_VALIDATORS = 'dist';
  const { sandboxOpenApi } = (await tsImport('../../routes.ts', import.meta.url)) as typeof SandboxOpenApiModule;
  const { OPENAPI_DOCUMENT_ENV } = (await tsImport('./openapi-document-file.ts', import.meta.url)) as typeof DocumentFileModule;
  const { bodyValidatorsModule } = (await tsImport('./response-contract.ts', import.meta.url)) as typeof ResponseContractModule;
  const { BODY_VALIDATORS_FILE } = (await tsImport('./openapi-document-file.ts', import.meta.url)) as typeof DocumentFileModule;
  const document = sandboxOpenApi();
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  // And its body validators, compiled once here rather than in every test file (response-contract.ts says how), or
  // kept from an earlier run (body-validators-cache.ts).
  const { resolve } = createRequire(import.meta.url);
  const { bodyValidatorsKey, keptBodyValidators } = (await tsImport('./body-validators-cache.ts', import.meta.url)) as typeof BodyValidatorsCacheModule;
  const kept = fileURLToPath(new URL('../../../node_modules/.cache/pos-sandbox', import.meta.url));
  const code = keptBodyValidators(kept, bodyValidatorsKey(document, resolve), () => bodyValidatorsModule(document as Parameters<typeof bodyValidatorsModule>[0], resolve));
  writeFileSync(join(dir, BODY_VALIDATORS_FILE), code);
  // Workers inherit the environment of the process that runs globalSetup.
  process.env[OPENAPI_DOCUMENT_ENV] = file;
}

/**
 * Where the PostgreSQL suites run (server binaries installed, or required), one server for the whole run, started in
 * the background: the workers learn where it is from the file the environment names (postgres.ts), and
 * globalTeardown stops it. Where they are required, a server that cannot start fails every suite that asks for it.
 */
async function startRunPostgres(): Promise<void> {
  const { RUN_POSTGRES_TESTS, announceRunPostgres } = (await tsImport('../postgres.ts', import.meta.url)) as typeof PostgresModule;
  if (!RUN_POSTGRES_TESTS) return;
  (globalThis as { posSandboxPostgres?: Promise<PostgresModule.PostgresServer | undefined> }).posSandboxPostgres = announceRunPostgres();
}
