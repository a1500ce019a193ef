/** The journal's OpenAPI components: an entry as the journal keeps it, and HAR 1.2 as the export writes it. */

const nameValues = {
  type: 'array',
  items: { type: 'object', required: ['name', 'value'], additionalProperties: false, properties: { name: { type: 'string' }, value: { type: 'string' } } },
};

/** The JournalEntry component: what journal-entry.ts writes. */
export const journalSchemas = {
    JournalEntry: {
      type: 'object',
      required: ['id', 'requestId', 'time', 'method', 'path', 'request', 'response', 'latencyMs', 'findings'],
      properties: {
        id: { type: 'string' },
        requestId: { type: 'string' },
        time: { type: 'string', format: 'date-time' },
        method: { type: 'string' },
        path: { type: 'string' },
        locationId: { type: 'string' },
        partner: { type: 'string' },
        token: {
          type: 'object',
          description: 'Header and claims of the token, and its sha256; never the signature.',
          properties: { header: { type: 'object' }, claims: { type: 'object' }, sha256: { type: 'string' } },
        },
        request: { type: 'object' },
        response: { type: 'object' },
        latencyMs: { type: 'number' },
        findings: {
          type: 'array',
          items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, section: { type: 'string' } } },
        },
        direction: { enum: ['inbound', 'outbound'], description: 'outbound: the sandbox delivered an order to the POS.' },
        url: { type: 'string', description: 'Outbound: where the order went.' },
        orderId: { type: 'string' },
        delivery: { type: 'object', description: 'Outbound: dispatch, attempt, of, the verdict on the reply, and copy (1, 2) for a duplicate delivery.' },
        fault: {
          type: 'object',
          description: 'The fault rule that acted on this request or try.',
          required: ['rule', 'kind', 'source'],
          properties: { rule: { type: 'string' }, kind: { type: 'string' }, source: { enum: ['api', 'file', 'header'] }, description: { type: 'string' } },
        },
        menuUpdate: {
          type: 'object',
          description: 'An accepted PUT /menu: its form, location, and every name and price it changed (from → to).',
          properties: { form: { enum: ['A', 'B'] }, locationId: { type: 'string' }, changes: { type: 'array', items: { type: 'object' } } },
        },
      },
    },
};

/** One journal entry of the HAR; the sandbox's own fields start with an underscore, as HAR allows. */
const harEntry = {
  type: 'object',
  description: 'One journal entry. Dropped or held calls have response status 0 and _error saying why. The sandbox adds only fields that start with an underscore.',
  required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings', '_journalId', '_requestId', '_findings', '_direction'],
  additionalProperties: false,
  patternProperties: { '^_': { description: 'A field of the sandbox, as HAR allows.' } },
  properties: {
    startedDateTime: { type: 'string', format: 'date-time' },
    time: { type: 'number', minimum: 0 },
    request: {
      type: 'object',
      required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
      additionalProperties: false,
      properties: {
        method: { type: 'string' },
        url: { type: 'string', description: 'The sandbox URL called, or for an outbound entry the POS order URL.' },
        httpVersion: { const: 'HTTP/1.1' },
        // Always empty; `items` all the same, as Spectral's oas ruleset wants one on every array.
        cookies: { type: 'array', maxItems: 0, items: { type: 'object' } },
        headers: nameValues,
        queryString: nameValues,
        postData: {
          type: 'object',
          required: ['mimeType', 'text'],
          additionalProperties: false,
          properties: { mimeType: { type: 'string' }, text: { type: 'string' } },
        },
        headersSize: { const: -1 },
        bodySize: { type: 'integer', minimum: 0 },
      },
    },
    response: {
      type: 'object',
      required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', minimum: 0, description: '0: no answer was sent (a drop or hang fault, or the client left first).' },
        statusText: { type: 'string' },
        httpVersion: { const: 'HTTP/1.1' },
        cookies: { type: 'array', maxItems: 0, items: { type: 'object' } },
        headers: nameValues,
        content: {
          type: 'object',
          required: ['size', 'mimeType'],
          additionalProperties: false,
          properties: { size: { type: 'integer', minimum: 0 }, mimeType: { type: 'string' }, text: { type: 'string' } },
        },
        redirectURL: { const: '' },
        headersSize: { const: -1 },
        bodySize: { type: 'integer', minimum: 0 },
      },
    },
    cache: { type: 'object', maxProperties: 0 },
    timings: {
      type: 'object',
      required: ['send', 'wait', 'receive'],
      additionalProperties: false,
      properties: { send: { type: 'number' }, wait: { type: 'number', description: 'The latency the journal measured.' }, receive: { type: 'number' } },
    },
    _journalId: { type: 'string' },
    _requestId: { type: 'string' },
    _token: { type: 'object', description: 'As JournalEntry.token: header, claims and sha256, never the signature.' },
    _tokenDefects: { type: 'array', items: { type: 'object' } },
    _findings: { type: 'array', items: { type: 'object' } },
    _direction: { enum: ['inbound', 'outbound'] },
    _menuUpdate: { type: 'object' },
    _orderId: { type: 'string' },
    _delivery: { type: 'object' },
    _fault: { type: 'object' },
    _error: { type: 'string' },
  },
};

/** HAR 1.2 as har.ts writes it: the parts it writes, and nothing else. */
export const harSchema = {
    type: 'object',
    description: 'A HAR 1.2 log: the parts the sandbox writes.',
    required: ['log'],
    additionalProperties: false,
    properties: {
      log: {
        type: 'object',
        required: ['version', 'creator', 'entries'],
        additionalProperties: false,
        properties: {
          version: { const: '1.2' },
          creator: {
            type: 'object',
            required: ['name', 'version'],
            additionalProperties: false,
            properties: { name: { const: 'pos-sandbox' }, version: { type: 'string' } },
          },
          entries: { type: 'array', description: 'Oldest first.', items: harEntry },
        },
      },
    },
};
