/**
 * The TypeScript types of the menu-update payload are generated from the JSON Schemas in
 * menu-template/schemas, so the schemas stay the one source (`npm run generate:menu-types`).
 * A test regenerates them and fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { MENU_SCHEMA_DIR, MENU_SCHEMA_FILES } from '../server/fixtures/menu-update-schemas.js';
import { PACKAGE_ROOT } from '../server/version.js';

export const TYPES_FILE = join(PACKAGE_ROOT, 'server', 'domain', 'menu-update-types.ts');

const BANNER = `/* Generated from menu-template/schemas by \`npm run generate:menu-types\`; do not edit by hand. */`;

/** The text of server/domain/menu-update-types.ts for the schemas as they are now. */
export async function renderMenuUpdateTypes(): Promise<string> {
  const parts: string[] = [];
  for (const file of Object.values(MENU_SCHEMA_FILES)) {
    const schema = JSON.parse(readFileSync(join(MENU_SCHEMA_DIR, file), 'utf8')) as JSONSchema;
    parts.push(
      await compile(schema, file, {
        bannerComment: '',
        additionalProperties: false,
        format: true,
        style: { printWidth: 120, singleQuote: true },
        cwd: MENU_SCHEMA_DIR,
      }),
    );
  }
  return `${BANNER}\n\n${parts.map((part) => part.trim()).join('\n\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(TYPES_FILE, await renderMenuUpdateTypes());
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
}
