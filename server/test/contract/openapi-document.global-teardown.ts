/** Removes the document openapi-document.global-setup.ts wrote (the variable is OPENAPI_DOCUMENT_ENV's). */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

export default function removeOpenApiDocument(): void {
  const file = process.env.POS_SANDBOX_TEST_OPENAPI_FILE;
  if (file !== undefined) rmSync(dirname(file), { recursive: true, force: true });
}
