/**
 * Judges one HTTP answer of the sandbox against its OpenAPI document: the operation its method and path name, the
 * status among those the operation declares, the media type, and the body against the declared schema. Pure: the
 * caller says what was asked and what came back, and gets the violations as sentences (none: it conforms).
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type AjvFormats from 'ajv-formats';
import type Standalone from 'ajv/dist/standalone/index.js';

// ajv is loaded when a schema is to be compiled, and by Node's own require: every test file runs this contract
// check, most with the validators the global setup compiled, and loading ajv into each file's module registry was
// paid even by unit tests that send no request (34 such files: 0.6 s less CPU in-band). Node loads it once per worker.
const load = createRequire(import.meta.url);
const ajvModules = () => ({
  Ajv: (load('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020,
  addFormats: (load('ajv-formats') as typeof AjvFormats).default,
  standaloneCode: (load('ajv/dist/standalone/index.js') as typeof Standalone).default,
});

export interface ObservedExchange {
  method: string;
  /** The request target's path, without the query. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text; undefined when the client did not keep it (a stream). */
  text: string | undefined;
}

interface MediaType {
  schema?: object;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: object;
}

/** The header a fault rule's answer carries: such a body is whatever the rule said, even broken JSON (`malformed`). */
const FAULT_RULE_HEADER = 'x-sandbox-fault-rule';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export type ContractCheck = ((exchange: ObservedExchange) => string[]) & {
  /** The document's path template an answer to this path is judged by; undefined when none describes it. */
  templateFor(path: string): string | undefined;
};

/** The ajv every body is judged with: the whole document under one id, so every #/components/… reference resolves. */
function documentAjv(document: OpenApiDocument, options: { source?: boolean } = {}): Ajv2020 {
  const { Ajv, addFormats } = ajvModules();
  const ajv = new Ajv({ strict: false, allErrors: true, ...(options.source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  // Not checked against the JSON Schema meta-schema (the last argument): `paths` and `components` are not keywords,
  // so that check looked at nothing under them, yet compiling the meta-schema cost every test file about 0.1 s. Each
  // schema the checks use is still compiled, which fails on a broken one; openapi-contract.suite.ts validates the document.
  ajv.addSchema({ paths: document.paths, components: document.components }, 'openapi', undefined, false);
  return ajv;
}

/** The schema of each JSON answer the document declares, by the pointer `check` names it with. */
export function bodySchemaPointers(document: OpenApiDocument): string[] {
  const pointers: string[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.includes(method)) continue;
      for (const [key, response] of Object.entries(operation.responses ?? {})) {
        for (const [mediaType, media] of Object.entries(response.content ?? {})) {
          if (media.schema !== undefined && mediaType.endsWith('json')) pointers.push(bodySchemaPointer(template, method, key, mediaType));
        }
      }
    }
  }
  return pointers;
}

/**
 * Every body validator of the document as one CommonJS module (ajv's standalone code), each exported under its
 * pointer: compiled once per run by the global setup, instead of in each of the ~100 test files that meet the same
 * answers (about 4 s of CPU a run). ajv's own modules are required by their absolute paths: the module is written
 * to a temporary folder, where a bare `require("ajv/…")` would find nothing.
 */
export function bodyValidatorsModule(document: OpenApiDocument, resolve: (specifier: string) => string): string {
  const ajv = documentAjv(document, { source: true });
  const pointers = bodySchemaPointers(document);
  for (const pointer of pointers) ajv.getSchema(pointer);
  const code = ajvModules().standaloneCode(ajv, Object.fromEntries(pointers.map((pointer) => [pointer, pointer])));
  return code.replace(/require\("((?:ajv|ajv-formats)\/[^"]+)"\)/g, (_whole, specifier: string) => `require(${JSON.stringify(resolve(specifier))})`);
}

/**
 * Reads `paths` and `components` of an OpenAPI 3.1 document. `compiled`: validators built from this very document
 * by bodyValidatorsModule, by pointer; a pointer it lacks is compiled here.
 */
export function contractCheck(document: OpenApiDocument, compiled: Readonly<Record<string, ValidateFunction>> = {}): ContractCheck {
  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ValidateFunction>(Object.entries(compiled));
  const templates = Object.keys(document.paths).map((template) => ({ template, pattern: templatePattern(template) }));
  // A literal path wins over a template that also matches it (/_sandbox/journal.har, not /_sandbox/journal/{id}).
  templates.sort((a, b) => countParameters(a.template) - countParameters(b.template));

  const templateFor = (path: string) => templates.find(({ pattern }) => pattern.test(path))?.template;

  const check = (exchange: ObservedExchange): string[] => {
    const template = templateFor(exchange.path);
    if (template === undefined) return [];
    const method = exchange.method.toLowerCase();
    const operation = document.paths[template]?.[method];
    // A method the path does not have is the router's 405 or 404, which no operation describes.
    if (operation === undefined || !METHODS.includes(method)) return [];
    const at = `${exchange.method.toUpperCase()} ${exchange.path} → ${exchange.status}`;
    const responses = operation.responses ?? {};
    const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
    if (key === undefined) return [`${at}: the document declares no ${exchange.status} (nor ${String(exchange.status)[0]}XX, nor default) for ${method.toUpperCase()} ${template}`];
    const declared = responses[key]!;
    const content = declared.content ?? {};
    const hasBody = exchange.text !== undefined && exchange.text.length > 0;
    const faultAnswered = exchange.headers[FAULT_RULE_HEADER] !== undefined;
    if (Object.keys(content).length === 0) {
      return hasBody && method !== 'head' ? [`${at}: the document declares no body for this answer, the sandbox sent ${describeText(exchange.text!)}`] : [];
    }
    if (method === 'head') return [];
    const mediaType = String(exchange.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!hasBody) return exchange.text === undefined ? [] : [`${at}: the document declares a body (${Object.keys(content).join(', ')}), the sandbox sent none`];
    const media = content[mediaType];
    if (media === undefined) return [`${at}: the sandbox answered ${mediaType || 'no Content-Type'}, the document declares ${Object.keys(content).join(', ')}`];
    // A rule's answer is the rule's: its status is declared above, its body is the user's (or broken on purpose).
    if (faultAnswered || media.schema === undefined || !mediaType.endsWith('json')) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.text!);
    } catch {
      return [`${at}: labelled ${mediaType} but not JSON: ${describeText(exchange.text!)}`];
    }
    const pointer = bodySchemaPointer(template, method, key, mediaType);
    let validate = validators.get(pointer);
    if (validate === undefined) {
      ajv ??= documentAjv(document);
      validate = ajv.getSchema(pointer)!;
      validators.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((error) => `${at}: body${error.instancePath} ${error.message ?? 'is invalid'} (schema ${error.schemaPath})`);
  };
  return Object.assign(check, { templateFor });
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

const countParameters = (template: string) => (template.match(/\{/g) ?? []).length;
const bodySchemaPointer = (template: string, method: string, key: string, mediaType: string) =>
  `openapi#/paths/${escapePointer(template)}/${method}/responses/${escapePointer(key)}/content/${escapePointer(mediaType)}/schema`;
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const describeText = (text: string) => (text.length > 80 ? `${JSON.stringify(text.slice(0, 80))}… (${text.length} characters)` : JSON.stringify(text));
