/** Removes the document openapi-document.global-setup.ts wrote (the variable is OPENAPI_DOCUMENT_ENV's), and stops the run's PostgreSQL server. */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

export default async function removeOpenApiDocument(): Promise<void> {
  await (globalThis as { posSandboxPostgres?: { stop(): Promise<void> } }).posSandboxPostgres?.stop();
  const file = process.env.POS_SANDBOX_TEST_OPENAPI_FILE;
  if (file !== undefined) rmSync(dirname(file), { recursive: true, force: true });
}
