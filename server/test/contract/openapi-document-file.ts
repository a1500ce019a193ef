/** Where the test run's OpenAPI document is: built once by the global setup, read by every test file. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';

/** The environment variable naming the file the global setup wrote. */
export const OPENAPI_DOCUMENT_ENV = 'POS_SANDBOX_TEST_OPENAPI_FILE';

/** The document of this run, or undefined when no global setup wrote one (a test file run without jest.config.js). */
export function readRunOpenApiDocument(): object | undefined {
  const file = process.env[OPENAPI_DOCUMENT_ENV];
  return file === undefined ? undefined : (JSON.parse(readFileSync(file, 'utf8')) as object);
}

/** The body validators the global setup compiled from that document (response-contract.ts's bodyValidatorsModule), next to it. */
export const BODY_VALIDATORS_FILE = 'body-validators.cjs';

/** The body validators of this run's document, by pointer; none when no global setup wrote them. */
export function readRunBodyValidators(): Record<string, ValidateFunction> {
  const file = process.env[OPENAPI_DOCUMENT_ENV];
  const validators = file === undefined ? undefined : join(dirname(file), BODY_VALIDATORS_FILE);
  // Node's own require: the module is plain CommonJS, loaded once per worker and shared by its test files.
  return validators !== undefined && existsSync(validators) ? (createRequire(import.meta.url)(validators) as Record<string, ValidateFunction>) : {};
}
