/** Building blocks of openapi.json: content, refs, the shared shape of a POS operation and of a control GET. */

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
};

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
      ...(spec.description ? { description: spec.description } : {}),
      security: POS_SECURITY,
      parameters: [locationHeader, { name: 'x-request-id', in: 'header', required: false, schema: { type: 'string' } }],
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
