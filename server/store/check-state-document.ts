/** Pure: what is wrong with the value of the data file: its JSON Schema, then what a schema cannot say. */
import type { ValidateFunction } from 'ajv';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { storedSchemaMessages } from './stored-schema-messages.js';
import { checkFaultRules } from '../faults/fault-rules.js';
import { FAULT_COUNTER_FIELDS, STORED_AJV_OPTIONS, stateDocumentSchema } from './stored-state-schemas.js';

let validator: ValidateFunction | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every problem of the state document, each worded to follow "<path of the data file>: ". */
export function stateDocumentProblems(value: unknown): string[] {
  validator ??= compileSchema(() => newAjv(STORED_AJV_OPTIONS), STORED_AJV_OPTIONS, stateDocumentSchema);
  const problems: string[] = [];
  const version = isObject(value) ? value.schemaVersion : undefined;
  const otherVersion = typeof version === 'number' && version !== 1;
  if (otherVersion) {
    problems.push(`schemaVersion is ${version}, but this sandbox reads version 1 only: was the file written by another version of pos-sandbox?`);
  }
  if (!validator(value)) {
    problems.push(...storedSchemaMessages(validator.errors, 'the state document').filter((problem) => !(otherVersion && problem.startsWith('schemaVersion '))));
  }
  if (!isObject(value)) return problems;
  if (isObject(value.menus)) {
    for (const [locationId, menu] of Object.entries(value.menus)) {
      if (isObject(menu) && typeof menu.LocationId === 'string' && menu.LocationId !== locationId) {
        // Menus are looked up by their key: this one would answer for a location it is not the menu of.
        problems.push(`menus[${JSON.stringify(locationId)}].LocationId is ${JSON.stringify(menu.LocationId)}: a menu is kept under its own LocationId`);
      }
    }
  }
  const faults = value.faults;
  if (Array.isArray(faults) && faults.length > 0 && faults.every(isObject)) {
    // The rule itself is held to what POST /_sandbox/faults accepts; its counters were checked by the schema.
    const rules = faults.map((stored) => Object.fromEntries(Object.entries(stored).filter(([field]) => !(FAULT_COUNTER_FIELDS as readonly string[]).includes(field))));
    const check = checkFaultRules(rules);
    if (!check.ok) problems.push(...check.problems.map((problem) => `faults${problem}`));
  }
  return problems;
}
