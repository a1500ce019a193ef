/** Examples for every schema, parameter and body, each a value the sandbox really takes or answers, so importers show real values; a test validates each against its schema. */
import { AT, CHECKLIST_RUN, componentExamples, menuError, orderError, REQUEST_ID, type ExamplePayloads } from './openapi-component-examples.js';

export type { ExamplePayloads } from './openapi-component-examples.js';

/** Parameter examples by name; the route declares those of its own (an id, a status of its list). */
const PARAMETER_EXAMPLES: Record<string, unknown> = {
  'x-service-locationid': 'loc-std-001',
  'x-api-key': 'sandbox-only-x-api-key-demo-pos',
  'x-api-version': '2',
  'x-request-id': REQUEST_ID,
  location: 'loc-std-001',
  template: 'standard',
  externalId: 'POS-STD-1001',
  limit: 50,
  wait: 'true',
  types: 'order,refund',
  path: '/order/refund',
  since: AT,
  direction: 'inbound',
  order: 'ord-std-0001',
  fault: 'true',
};
/** Bodies of control operations whose schema is written in place, by operationId. */
function inlineBodyExamples(payloads: ExamplePayloads): Record<string, unknown> {
  return {
    reset: { reset: true, orders: 6, refunds: 0, journal: 0, faults: 0 },
    partners: [{ name: 'demo-pos', displayName: 'Demo POS', keyFingerprint: 'sha256:269c9f2af4e77bc3', tokenAudience: 'io.service.pos.brokers.openapi' }],
    locations: [
      { id: 'loc-std-001', kind: 'standard', name: 'Harbour Street Bistro', currency: 'EUR', timezone: 'Europe/Berlin', menuItems: 4 },
      { id: 'loc-hub-001-burgers', kind: 'hub', name: 'Central Kitchen: Burger Lab', currency: 'EUR', timezone: 'Europe/Berlin', hub: { id: 'hub-001', name: 'Central Kitchen', brand: 'Burger Lab' }, menuItems: 3 },
    ],
    locationMenu: { LocationId: 'loc-std-001', Currency: 'EUR', Items: payloads.menuFormA.Items },
    clearJournal: { cleared: true },
    clearFaults: { deleted: 1 },
    journalHar: { log: { version: '1.2', creator: { name: 'pos-sandbox', version: '0.1.0' }, entries: [] } },
    mintToken: {
      token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsb2Mtc3RkLTAwMSJ9.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxl',
      header: { alg: 'HS256', typ: 'JWT' },
      claims: { sub: 'loc-std-001', jti: '0404d3e0-1044-4a8f-bbd4-0ee3f31e45af', nbf: 1795255200, exp: 1795258800, iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' },
      expiresAt: '2026-11-21T11:00:00.000Z',
    },
    mintTokenRequest: { locationId: 'loc-std-001', ttl: 600 },
    faultScripts: [
      {
        name: 'service-outage',
        rules: [{ id: 'outage', description: 'Service outage: the next 6 calls to any POS endpoint answer 503 in the endpoint\'s own envelope, then the service is back.', match: { direction: 'inbound' }, action: { kind: 'status', status: 503 }, times: 6 }],
      },
    ],
    startChecklistRunRequest: { referencePos: true, capabilities: ['refund', 'hub', 'kiosk'], windowMs: 500 },
    reports: [{ id: CHECKLIST_RUN.report.id, title: 'Demo run, not a certification: demo-pos (the bundled reference POS)', startedAt: '2026-11-21T10:00:00.000Z', verdict: 'passed', pos: 'demo-pos', html: CHECKLIST_RUN.report.html, signer: { kind: 'self-signed', kid: 'Yx2rV4qB0y1m7cXk8oJ3Zt9sN6aL5dW2hF0gP1eR4uQ' } }],
    reportHtml: '<!doctype html><html lang="en"><head><title>Demo run, not a certification: demo-pos</title></head><body>…</body></html>',
    checkTokenRequest: { token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsb2Mtc3RkLTAwMSJ9.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxl' },
    checkToken: {
      answer: { authenticated: false, status: 401, body: { errors: [{ code: 'UNAUTHORIZED', message: 'token claim jti is missing (a unique identifier for each token, §5)' }] } },
      header: { alg: 'HS256', typ: 'JWT' },
      claims: { sub: 'loc-std-001' },
      rules: [
        { rule: 'format', asks: 'a JWT: three base64url parts, header.payload.signature, sent as Authorization: Bearer <JWT>', verdict: 'pass', details: ['three base64url parts, header and payload JSON'] },
        { rule: 'jti', asks: 'jti: a unique identifier for each token, a non-empty string', verdict: 'fail', details: ['token claim jti is missing (a unique identifier for each token, §5)'] },
      ],
      findings: [],
    },
    checkSecretsRequest: { texts: { '--pos-name': 'acme-pos', '--pos-version': '4.2.0', '--pos-build': 'SANDBOX-ONLY-nonprod-key-demo-pos-3f9c2a7e5b1d4c8a9e6f0b2d7a4c1e85' } },
    checkSecrets: { holding: ['--pos-build'] },
    openapi: { openapi: '3.1.0', info: { title: 'POS Sandbox', version: '0.1.0' }, paths: {} },
    events: 'id: 7\nevent: refund\ndata: {"id":7,"type":"refund","time":"2026-11-21T10:00:01.000Z","data":{"id":"rf-1","status":"PROCESSED"}}\n\n',
  };
}

interface Schema {
  $ref?: string;
  type?: unknown;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  examples?: unknown[];
}
interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const isComponentBody = (schema: Schema | undefined): boolean =>
  schema?.$ref !== undefined || (schema?.type === 'array' && schema.items?.$ref !== undefined);

/** The document with its examples: on component schemas (`examples`), parameters and media types (`example`). */
export function withExamples<T>(document: T, payloads: ExamplePayloads): T {
  const doc = document as unknown as Document;
  for (const [name, examples] of Object.entries(componentExamples(payloads))) {
    const schema = doc.components.schemas[name];
    if (schema !== undefined) schema.examples = examples;
  }
  const inline = inlineBodyExamples(payloads);
  const exampleOf = (schema: Schema | undefined, operationId: string | undefined, fallbackKey?: string): unknown => {
    if (schema === undefined) return undefined;
    if (schema.$ref !== undefined) return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]?.examples?.[0];
    if (schema.type === 'array' && schema.items?.$ref !== undefined) return [exampleOf(schema.items, undefined)];
    if (schema.oneOf !== undefined) return exampleOf(schema.oneOf[0], operationId);
    return schema.examples?.[0] ?? inline[fallbackKey ?? operationId ?? ''];
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    const control = path.startsWith('/_sandbox');
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example !== undefined) continue;
        if (PARAMETER_EXAMPLES[parameter.name] !== undefined) parameter.example = PARAMETER_EXAMPLES[parameter.name];
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        if (media.schema?.oneOf !== undefined) {
          // PUT /menu takes form A or form B, POST /_sandbox/faults one rule or a list: an importer offers each, named.
          media.examples = Object.fromEntries(media.schema.oneOf.map((choice) => [choice.$ref?.split('/').pop() ?? 'List', { value: exampleOf(choice, undefined) }]));
        } else {
          media.example ??= exampleOf(media.schema, operation.operationId, `${operation.operationId}Request`);
        }
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          // A fault's `default` answer is the envelope or any body the rule gives (anyOf), or a rule's text body.
          const envelope = media.schema?.$ref ?? media.schema?.anyOf?.[0]?.$ref;
          const menuFamily = envelope?.endsWith('MenuErrorEnvelope') === true;
          const error = status === 'default' || Number(status) >= 400 ? errorExample(control ? CONTROL_ERRORS : menuFamily ? MENU_ERRORS : POS_ERRORS, status, path, method) : undefined;
          if (error !== undefined && type.startsWith('text/')) media.example ??= injectedText(type, status, error);
          else if (error !== undefined && menuFamily) media.example ??= menuError(...error);
          else if (error !== undefined) media.example ??= orderError(...error);
          // A component body has its schema's examples, not a copy in every answer.
          else if (!isComponentBody(media.schema)) media.example ??= type === 'text/event-stream' ? inline.events : exampleOf(media.schema, operation.operationId);
        }
      }
    }
  }
  return document;
}

/** The error examples of the OpenAPI document: what each error status answers, in each envelope family's words. */

/** What each error status of the POS API answers, in the order family's words (the menu family capitalizes the keys). */
export const POS_ERRORS: Record<string, [string, string]> = {
  '400': ['INVALID_PAYLOAD', 'ExternalId must not be empty or blank'],
  '401': [
    'UNAUTHORIZED',
    "token signature does not verify with the non-prod key of POS 'demo-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)",
  ],
  '409': [
    'INVALID_STATE',
    'order ord-std-0001 cannot become ACCEPTED: it was already decided (ACCEPTED); a status is sent once per delivery. The status is accepted only while the order is AWAITING_STATUS, after a reply without Status',
  ],
  '413': ['PAYLOAD_TOO_LARGE', 'body is 1100000 bytes; the sandbox accepts at most 1 MiB (1048576 bytes)'],
  '429': ['TOO_MANY_REQUESTS', "rate limit exceeded, retry after 1 s: injected by the sandbox (fault rule rate-limited); nothing was processed"],
  '503': ['SERVICE_UNAVAILABLE', "503 Service Unavailable: injected by the sandbox (fault rule outage); nothing was processed"],
  default: ['SERVICE_UNAVAILABLE', "503 Service Unavailable: injected by the sandbox (fault rule outage); nothing was processed"],
};

/** Where the menu family answers otherwise (its 400 lists every problem of the update, each with its JSON path). */
export const MENU_ERRORS: Record<string, [string, string]> = {
  ...POS_ERRORS,
  '400': ['VALIDATION_ERROR', 'Items[0].Prices[0].Price must be 0 or more, got number -1; prices are whole numbers of minor units (1150 for 11.50)'],
};

/** A status fault's own string body: text/plain, or text/html when the rule declares it. */
export const injectedText = (type: string, status: string, [code, message]: [string, string]): string =>
  type === 'text/html' ? `<html><body><h1>${status === 'default' ? 503 : status} ${code}</h1><p>${message}</p></body></html>` : `${code}: ${message}`;

/** The same for the control API (always the order family). */
export const CONTROL_ERRORS: Record<string, [string, string]> = {
  '400': ['INVALID_REQUEST', "unknown query parameter 'colour'; this endpoint takes location, status, externalId, limit, after"],
  '401': ['UNAUTHORIZED', 'the control API needs Authorization: Bearer <the --admin-token value>'],
  '403': [
    'FORBIDDEN',
    "cross-site request refused: Origin 'https://example.com' is not this sandbox's (its own is http://127.0.0.1:4100); the control API takes no calls from web pages of other origins, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist), which sends no Origin header",
  ],
  '404': ['NOT_FOUND', "no order 'ord-nope'; GET /_sandbox/orders lists them"],
  '409': ['INVALID_STATE', 'order ord-std-0001 is ACCEPTED; only a REJECTED or DELIVERY_FAILED order can be resent'],
  '429': [
    'TOO_MANY_REQUESTS',
    'partner \'acme-pos\' sent more than 20 requests a second (bursts of 40 allowed), a quota of this sandbox (docs/hosting.md, "Exposing it to partners"); send it again after 1 s',
  ],
  '415': [
    'UNSUPPORTED_MEDIA_TYPE',
    "Content-Type 'text/plain' refused on POST: the control API takes application/json bodies only, since a web page may send text/plain, form and multipart bodies to any site without asking first; send Content-Type: application/json, or no body and no Content-Type",
  ],
};

/** The error of `status`; a 405 names the path it was sent to and the method the path takes. */
export function errorExample(errors: Record<string, [string, string]>, status: string, path: string, method: string): [string, string] | undefined {
  if (status !== '405') return errors[status];
  const wrong = method === 'get' ? 'POST' : 'GET';
  return ['METHOD_NOT_ALLOWED', `${wrong} is not allowed on ${path}; use ${method.toUpperCase()}`];
}
