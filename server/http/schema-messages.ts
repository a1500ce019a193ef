/**
 * Turns ajv errors into messages that name their JSON path the way a POS engineer reads it:
 * `Items[2].Prices[0].Price must be a whole number, got number 12.5`.
 */
import type { ErrorObject } from 'ajv';
import { describeValue } from './describe-value.js';

/** `/Items/2/Prices/0/Price` → `Items[2].Prices[0].Price`; the empty pointer is `root`. */
export function pointerToPath(pointer: string, root: string): string {
  if (pointer === '') return root;
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function child(path: string, property: string, root: string): string {
  const parent = path === root ? '' : path;
  return /^[A-Za-z_$][\w$]*$/.test(property) ? (parent === '' ? property : `${parent}.${property}`) : `${parent}[${JSON.stringify(property)}]`;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** One readable message per ajv error (ajv must run with `allErrors` and `verbose`). */
export function schemaMessages(errors: ErrorObject[] | null | undefined, root: string): string[] {
  const messages = (errors ?? []).map((error) => schemaMessage(error, root));
  return [...new Set(messages)];
}

function schemaMessage(error: ErrorObject, root: string): string {
  const path = pointerToPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const got = 'data' in error ? `, got ${describeValue(error.data)}` : '';
  switch (error.keyword) {
    case 'required':
      return `${child(path, String(params.missingProperty), root)} is required`;
    case 'additionalProperties':
      return `${child(path, String(params.additionalProperty), root)} is not an allowed field`;
    case 'type': {
      const types = String(params.type).split(',').map((type) => TYPE_WORDS[type] ?? type);
      return `${path} must be ${types.join(' or ')}${got}`;
    }
    case 'enum':
      return `${path} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${got}`;
    case 'const':
      return `${path} must be ${JSON.stringify(params.allowedValue)}${got}`;
    case 'minimum':
      return `${path} must be ${String(params.limit)} or more${got}`;
    case 'maximum':
      return `${path} must be ${String(params.limit)} or less${got}`;
    case 'exclusiveMinimum':
      return `${path} must be more than ${String(params.limit)}${got}`;
    case 'minLength':
      return params.limit === 1 ? `${path} must not be empty` : `${path} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${path} must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return params.limit === 1 ? `${path} must not be empty` : `${path} must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `${path} must have at most ${String(params.limit)} items${Array.isArray(error.data) ? `, got ${error.data.length}` : ''}`;
    case 'pattern':
      return `${path} must match ${String(params.pattern)}${got}`;
    default:
      return `${path} ${error.message ?? 'is not valid'}`;
  }
}
