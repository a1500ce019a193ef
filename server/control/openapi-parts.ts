/** Building blocks of openapi.json: content, refs, the shared shape of a POS operation and of a control GET. */

import { FAULT_HEADER_SYNTAX } from '../faults/fault-header.js';

export const json = (schema: object) => ({ 'application/json': { schema } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const controlOk = (description: string, schema: object) => ({ description, content: json(schema) });

const POS_SECURITY = [{ posToken: [] }];
const locationHeader = {
  name: 'x-service-locationid',
  in: 'header',
  required: true,
  description: 'The merchant location (§4).',
  schema: { type: 'string' },
  example: 'loc-std-001',
};

/** §5's migration headers: every request carries them; a missing one is a finding, never a refusal. */
const migrationHeaders = [
  {
    name: 'x-api-key',
    in: 'header',
    required: true,
    description: 'Every request carries it (§5). Its value is not checked by the sandbox; a missing one is a finding.',
    schema: { type: 'string' },
    example: 'sandbox-only-x-api-key-demo-pos',
  },
  {
    name: 'x-api-version',
    in: 'header',
    required: true,
    description: 'The API version every request carries (§5); a missing one is a finding.',
    schema: { type: 'string' },
    example: '2',
  },
];

/**
 * The fault header is told in the operation's description, not declared as a parameter: importers (Postman)
 * put every optional header in each request with a placeholder value, and `x-sandbox-fault: <string>` is a 400.
 */
const FAULT_HEADER_NOTE = `To inject a fault into this one call, add the header x-sandbox-fault: ${FAULT_HEADER_SYNTAX} (see the README's "Fault injection").`;

/** One POS API operation at one mount: the shared auth, headers and error statuses, in the envelope of its family. */
export function posOperation(spec: {
  method: 'post' | 'put';
  name: string;
  mount: string;
  summary: string;
  description?: string;
  body: object;
  ok: string;
  okHeader: [string, object];
  invalid: string;
  envelope: 'OrderErrorEnvelope' | 'MenuErrorEnvelope';
  /** Statuses only this operation answers, e.g. 409. */
  more?: Record<string, string>;
}) {
  const error = (description: string) => ({ description, content: json(ref(spec.envelope)) });
  return {
    [spec.method]: {
      operationId: `${spec.name}${spec.mount.replace(/[^a-z0-9]/gi, '') || 'Root'}`,
      tags: ['POS API'],
      summary: `${spec.summary}, mounted at ${spec.mount || '/'}`,
      description: spec.description ? `${spec.description} ${FAULT_HEADER_NOTE}` : FAULT_HEADER_NOTE,
      security: POS_SECURITY,
      parameters: [locationHeader, ...migrationHeaders, { name: 'x-request-id', in: 'header', required: false, schema: { type: 'string' } }],
      requestBody: { required: true, content: json(spec.body) },
      responses: {
        '200': {
          description: spec.ok,
          headers: {
            'x-sandbox-findings': { schema: { type: 'integer' }, description: 'How many findings the request drew.' },
            'x-sandbox-journal-id': { schema: { type: 'string' } },
            [spec.okHeader[0]]: spec.okHeader[1],
          },
        },
        '400': error(spec.invalid),
        '401': error('UNAUTHORIZED: the token, each defect named'),
        '405': error('METHOD_NOT_ALLOWED'),
        '413': error('PAYLOAD_TOO_LARGE: over 1 MiB'),
        '429': error('TOO_MANY_REQUESTS: only when a fault rule or x-sandbox-fault injects it, with Retry-After'),
        '503': error('SERVICE_UNAVAILABLE (or any status a fault rule names): only when injected; nothing was processed'),
        ...Object.fromEntries(Object.entries(spec.more ?? {}).map(([status, description]) => [status, error(description)])),
      },
    },
  };
}

export const controlError = { description: 'An error', content: json(ref('OrderErrorEnvelope')) };

/** A control GET of one thing by its id: 200 with it, 404 in the envelope when there is none. */
export function getById(operationId: string, summary: string, found: string, schema: object) {
  return {
    get: {
      operationId,
      tags: ['Control API'],
      summary,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': controlOk(found, schema), '404': controlError },
    },
  };
}

/**
 * A draft-07 JSON Schema file as components: the root as `name`, its `definitions` as `name.<Definition>`, every
 * `$ref` relinked (an embedded `$id` would move the base of every `$ref`, so it is left out; so is `tsType`).
 */
export function schemaComponents(name: string, schema: object): Record<string, object> {
  const root: Record<string, unknown> = { ...schema };
  const definitions = (root.definitions ?? {}) as Record<string, object>;
  for (const key of ['definitions', '$id', '$schema']) delete root[key];
  const relink = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relink);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        // tsType speaks to the type generator only.
        .filter(([key]) => key !== 'tsType')
        .map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' ? value.replace('#/definitions/', `#/components/schemas/${name}.`) : relink(value),
        ]),
    );
  };
  const schemas: Record<string, object> = { [name]: relink(root) as object };
  for (const [definitionName, definition] of Object.entries(definitions)) schemas[`${name}.${definitionName}`] = relink(definition) as object;
  return schemas;
}
