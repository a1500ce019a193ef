// jest's test environment here: jest-environment-node, plus the run's OpenAPI document and the validators of its
// answer bodies (both written by openapi-document.global-setup.ts), read once per worker process and handed to each
// test file as a global. check-responses.setup.ts read them in every file, about 20 ms of CPU each time, because
// inside a test file every require goes through jest's own module registry, which starts empty for each file.
// Plain JavaScript: jest loads its environment outside that registry, where the TypeScript sources are not compiled.
import asyncHooks from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TestEnvironment } from 'jest-environment-node';

// The names openapi-document-file.ts gives them. Were they to drift apart, the setup reads the files itself, slower.
const DOCUMENT_ENV = 'POS_SANDBOX_TEST_OPENAPI_FILE';
const VALIDATORS_FILE = 'body-validators.cjs';

/** @type {{ document: object; validators: Record<string, Function> } | null | undefined} */
let shared;

function readShared() {
  const file = process.env[DOCUMENT_ENV];
  const validators = file === undefined ? undefined : join(dirname(file), VALIDATORS_FILE);
  if (file === undefined || validators === undefined || !existsSync(validators)) return null;
  return { document: JSON.parse(readFileSync(file, 'utf8')), validators: createRequire(import.meta.url)(validators) };
}

// jest's test runner makes an AsyncLocalStorage for each test file and never disables it. On Node 20 every enabled
// storage stays on a list that Node walks for every promise and every other async resource the process creates, and
// each puts a property of its own on each of them: in a worker, the 40th file's promises paid for the 39 before it.
// The storages made while a file runs are disabled once it is done, as no code of that file runs any more.
const madeDuringFile = new Set();
class StorageDisabledAfterTheFile extends asyncHooks.AsyncLocalStorage {
  constructor(...args) {
    super(...args);
    madeDuringFile.add(this);
  }
}
asyncHooks.AsyncLocalStorage = StorageDisabledAfterTheFile;

export default class ContractEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    shared ??= readShared();
    if (shared !== null) this.global.__posSandboxContract = shared;
  }

  async teardown() {
    for (const storage of madeDuringFile) storage.disable();
    madeDuringFile.clear();
    await super.teardown();
  }
}
