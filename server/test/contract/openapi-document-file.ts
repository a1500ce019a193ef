/** Where the test run's OpenAPI document is: built once by the global setup, read by every test file. */
import { readFileSync } from 'node:fs';

/** The environment variable naming the file the global setup wrote. */
export const OPENAPI_DOCUMENT_ENV = 'POS_SANDBOX_TEST_OPENAPI_FILE';

/** The document of this run, or undefined when no global setup wrote one (a test file run without jest.config.js). */
export function readRunOpenApiDocument(): object | undefined {
  const file = process.env[OPENAPI_DOCUMENT_ENV];
  return file === undefined ? undefined : (JSON.parse(readFileSync(file, 'utf8')) as object);
}
