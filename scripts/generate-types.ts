/** The types of the menu update, the order and the fault rule, generated from their JSON Schemas (`npm run generate:types`); a test fails on a stale file. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { MENU_SCHEMA_DIR, MENU_SCHEMA_FILES } from '../server/menus/menu-update-schemas.js';
import { ORDER_SCHEMA_FILE } from '../server/orders/order-schema.js';
import { FAULT_RULE_SCHEMA_FILE } from '../server/faults/fault-rules.js';
import { PACKAGE_ROOT } from '../server/version.js';

interface TypesTarget {
  /** The generated file. */
  file: string;
  /** Where its schemas are, for the banner. */
  source: string;
  schemas: string[];
}

export const TYPES_TARGETS: TypesTarget[] = [
  {
    file: join(PACKAGE_ROOT, 'server', 'menus', 'menu-update-types.ts'),
    source: 'menu-template/schemas',
    schemas: Object.values(MENU_SCHEMA_FILES).map((file) => join(MENU_SCHEMA_DIR, file)),
  },
  { file: join(PACKAGE_ROOT, 'server', 'orders', 'sandbox-order-types.ts'), source: 'order-model/', schemas: [ORDER_SCHEMA_FILE] },
  { file: join(PACKAGE_ROOT, 'server', 'faults', 'fault-rule-types.ts'), source: 'server/faults/fault-rule.schema.json', schemas: [FAULT_RULE_SCHEMA_FILE] },
];

/** The text of one generated types file for its schemas as they are now. */
export async function renderTypes(target: TypesTarget): Promise<string> {
  const parts: string[] = [];
  for (const path of target.schemas) {
    const schema = JSON.parse(readFileSync(path, 'utf8')) as JSONSchema;
    parts.push(
      await compile(schema, path, {
        bannerComment: '',
        additionalProperties: false,
        format: true,
        style: { printWidth: 120, singleQuote: true },
        cwd: join(path, '..'),
      }),
    );
  }
  const banner = `/* Generated from ${target.source} by \`npm run generate:types\`; do not edit by hand. */`;
  return `${banner}\n\n${parts.map((part) => part.trim()).join('\n\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const target of TYPES_TARGETS) {
    writeFileSync(target.file, await renderTypes(target));
    process.stdout.write(`wrote ${target.file}\n`);
  }
}
