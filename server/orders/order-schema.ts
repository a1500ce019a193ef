/** The order model's JSON Schema (order-model/), which every order is checked against before it leaves. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options, ValidateFunction } from 'ajv';
import type { SandboxOrder } from './sandbox-order-types.js';
import { PACKAGE_ROOT } from '../version.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';

export const ORDER_SCHEMA_FILE = join(PACKAGE_ROOT, 'order-model', 'sandbox-order.schema.json');

// format "date-time" is documentation here; ajv-formats is not worth a dependency for one field the sandbox writes itself.
/** How the order schema is compiled; `npm run build` compiles it with these too (scripts/build-validators.ts). */
export const ORDER_AJV_OPTIONS: Options = { allErrors: true, validateFormats: false };

let compiled: { schema: object; validate: ValidateFunction<SandboxOrder> } | undefined;

/** The schema, parsed once, and its validator (allErrors, so a broken template names every problem). */
export function orderSchema(): { schema: object; validate: ValidateFunction<SandboxOrder> } {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(ORDER_SCHEMA_FILE, 'utf8')) as object;
  compiled = { schema, validate: compileSchema<SandboxOrder>(() => newAjv(ORDER_AJV_OPTIONS), ORDER_AJV_OPTIONS, schema) };
  return compiled;
}
