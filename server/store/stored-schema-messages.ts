/**
 * Pure: ajv's errors for a stored file as lines, with the fields one object lacks said in one line
 * (`[0] lacks externalId, partner and status`): a record of the wrong kind would otherwise take a line a field.
 */
import type { ErrorObject } from 'ajv';
import { pointerToPath, schemaMessages } from '../http/messages.js';

export function storedSchemaMessages(errors: ErrorObject[] | null | undefined, root: string): string[] {
  const lacking = new Map<string, { one: ErrorObject; fields: string[] }>();
  const others: ErrorObject[] = [];
  for (const error of errors ?? []) {
    if (error.keyword !== 'required') {
      others.push(error);
      continue;
    }
    const entry = lacking.get(error.instancePath) ?? { one: error, fields: [] };
    entry.fields.push(String((error.params as { missingProperty: unknown }).missingProperty));
    lacking.set(error.instancePath, entry);
  }
  const grouped = [...lacking.entries()].flatMap(([pointer, { one, fields }]) => {
    if (fields.length === 1) return schemaMessages([one], root);
    return [`${pointerToPath(pointer, root)} lacks ${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`];
  });
  return [...grouped, ...schemaMessages(others, root)];
}
