/**
 * Judges one HTTP answer of the sandbox against its OpenAPI document: the operation its method and path name, the
 * status among those the operation declares, the media type, and the body against the declared schema. Pure: the
 * caller says what was asked and what came back, and gets the violations as sentences (none: it conforms).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

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

/** Reads `paths` and `components` of an OpenAPI 3.1 document. */
export function contractCheck(document: OpenApiDocument): ContractCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The whole document under one id, so every #/components/… reference resolves from any schema in it. Not checked
  // against the JSON Schema meta-schema (the last argument): `paths` and `components` are not keywords, so that
  // check looked at nothing under them, yet compiling the meta-schema cost every test file about 0.1 s. Each schema
  // the checks use is still compiled, which fails on a broken one; openapi-contract.test.ts validates the document.
  ajv.addSchema({ paths: document.paths, components: document.components }, 'openapi', undefined, false);
  const validators = new Map<string, ValidateFunction>();
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
    const pointer = `openapi#/paths/${escapePointer(template)}/${method}/responses/${escapePointer(key)}/content/${escapePointer(mediaType)}/schema`;
    let validate = validators.get(pointer);
    if (validate === undefined) {
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
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const describeText = (text: string) => (text.length > 80 ? `${JSON.stringify(text.slice(0, 80))}… (${text.length} characters)` : JSON.stringify(text));
