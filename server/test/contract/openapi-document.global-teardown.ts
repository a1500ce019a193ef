/**
 * Removes the document openapi-document.global-setup.ts wrote (the variable is OPENAPI_DOCUMENT_ENV's), and stops the
 * run's PostgreSQL server (waiting for it to be up, if it is still starting) and removes the file it announced itself
 * in (POSTGRES_ANNOUNCE_ENV's).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

export default async function removeOpenApiDocument(): Promise<void> {
  const server = await (globalThis as { posSandboxPostgres?: Promise<{ stop(): Promise<void> } | undefined> }).posSandboxPostgres;
  await server?.stop();
  for (const variable of ['POS_SANDBOX_TEST_OPENAPI_FILE', 'POS_SANDBOX_TEST_POSTGRES_FILE']) {
    const file = process.env[variable];
    if (file !== undefined) rmSync(dirname(file), { recursive: true, force: true });
  }
}
