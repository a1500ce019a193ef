/** The validators `npm run build` writes to dist/validators/, each compiled with the options it has at run time. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type Options } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { builtValidatorFile } from '../server/fixtures/compiled-schemas.js';
import { locationsSchema, menuSchema, orderTemplateSchema, ordersSchema, partnerSchema } from '../server/fixtures/fixture-schemas.js';
import { FIXTURE_AJV_OPTIONS } from '../server/fixtures/load-fixtures.js';
import { MENU_AJV_OPTIONS, MENU_SCHEMA_DIR, MENU_SCHEMA_FILES } from '../server/menus/menu-update-schemas.js';
import { ORDER_AJV_OPTIONS, ORDER_SCHEMA_FILE } from '../server/orders/order-schema.js';
import { FAULT_RULE_AJV_OPTIONS, FAULT_RULE_SCHEMA_FILE } from '../server/faults/fault-rules.js';
import { partnersFileSchema } from '../server/hosted/partners-file-schema.js';
import { orderSegmentSchema, refundRecordSchema, refundSegmentSchema, stateDocumentSchema, STORED_AJV_OPTIONS } from '../server/store/stored-state-schemas.js';

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as object;

/** `kept` files are kept as built, since compiling all of them cost every build. */
export function builtValidators(kept: (file: string) => boolean = () => false): Array<{ file: string; code?: string }> {
  const schemas: Array<[Options, object]> = [
    ...[partnerSchema, locationsSchema, menuSchema, orderTemplateSchema, ordersSchema].map((schema): [Options, object] => [FIXTURE_AJV_OPTIONS, schema as object]),
    [ORDER_AJV_OPTIONS, readJson(ORDER_SCHEMA_FILE)],
    [MENU_AJV_OPTIONS, readJson(join(MENU_SCHEMA_DIR, MENU_SCHEMA_FILES.A))],
    [MENU_AJV_OPTIONS, readJson(join(MENU_SCHEMA_DIR, MENU_SCHEMA_FILES.B))],
    [FAULT_RULE_AJV_OPTIONS, readJson(FAULT_RULE_SCHEMA_FILE)],
    // `serve --partners FILE`, checked as the fixtures are.
    [FIXTURE_AJV_OPTIONS, partnersFileSchema as object],
    // The check of the stored state at start (server/store/), when there is one.
    ...[stateDocumentSchema, orderSegmentSchema, refundSegmentSchema, refundRecordSchema].map((schema): [Options, object] => [STORED_AJV_OPTIONS, schema as object]),
  ];
  return schemas.map(([options, schema]) => {
    const file = builtValidatorFile(options, schema);
    if (kept(file)) return { file };
    // code.source keeps the generated code, which standaloneCode writes out; it does not change the validator.
    const ajv = new Ajv({ ...options, code: { source: true } });
    return { file, code: standaloneCode.default(ajv, ajv.compile(schema)) };
  });
}
