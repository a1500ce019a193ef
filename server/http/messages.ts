/** Describes a JSON value for an error message: its JSON type and, when short, the value itself. */
import type { ErrorObject } from 'ajv';

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const type = Array.isArray(value) ? 'array' : typeof value;
  // JSON.stringify writes Infinity (a body of 1e999) as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value}`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A value too deep or cyclic to print is still described by its type.
    return type;
  }
  return text !== undefined && text.length <= 40 ? `${type} ${text}` : type;
}

/** ajv errors as messages that name their JSON path as a POS engineer reads it: `Items[2].Prices[0].Price must be a whole number, got number 12.5`. */

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

/** Pure: text the sandbox did not write made safe for a terminal, every control or reordering character shown as its `\uXXXX` escape (the same character in JSON). */

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');
/** What a terminal line of the sandbox's own may hold: its colours (SGR) and line ends; anything else is escaped. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const TERMINAL_UNSAFE = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/g;

/** Characters that show nothing: a label holding one reads as another label. */
const INVISIBLE = /[\u200b-\u200d\u2060]/;

/** A value that names something (a POS name, a label in a report) is 1 to 100 characters that print as they read, not starting with a space. */
export const isLabel = (value: string): boolean => value.length > 0 && value.length <= 100 && value.trimStart() === value && !UNPRINTABLE.test(value) && !INVISIBLE.test(value);

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control and bidirectional character shown as its escape: one line, in the order it was written. */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE_ALL, escape) : text;
}

/** A copy of `value` with every string in it (keys too) printable; anything else as it is. */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => printableDeep(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, printable(key), { value: printableDeep(item), enumerable: true, writable: true, configurable: true });
  return copy as T;
}

/** The sandbox's own terminal output, whatever data it holds: colours, tabs and line ends kept, every other control character escaped. */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (found) => (found.length > 1 ? found : escape(found)));
}
