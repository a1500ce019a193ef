/** The journal parts of openapi.json: /_sandbox/journal, one entry, the HAR export, and their schemas (server/journal/). */
import { controlOk, controlResponses, getById, ref } from './openapi-parts.js';
import { pagedOk, pageParameters } from './openapi-paging.js';
import { JOURNAL_PAGE } from '../control/paging.js';

const JOURNAL_FILTER_PROBLEMS = 'an unknown query parameter, or a filter that does not parse (status, since, direction, findings, after, before, limit)';

export function journalPaths() {
  return {
    '/_sandbox/journal': {
      get: {
        operationId: 'journal',
        tags: ['Control API'],
        summary: `Journal entries, newest first, a page at a time (${JOURNAL_PAGE.defaultLimit} unless limit says otherwise)`,
        description:
          'Every call to the POS API, rejected ones included, and every delivery of an order to the POS, with headers, bodies, the token as header and claims (never the key or a signature), findings and the fault that acted. A typo in a filter answers 400 instead of returning everything.',
        parameters: [...journalParameters(), ...pageParameters('before', JOURNAL_PAGE)],
        responses: controlResponses({ '200': pagedOk('Entries', { type: 'array', items: ref('JournalEntry') }) }, { invalid: JOURNAL_FILTER_PROBLEMS }),
      },
      delete: {
        operationId: 'clearJournal',
        tags: ['Control API'],
        summary: 'Clear the journal',
        description: 'Drops every journal entry; refunds, orders and menus stay.',
        responses: controlResponses({ '200': controlOk('Cleared', { type: 'object', properties: { cleared: { const: true } } }) }, { changesState: true }),
      },
    },
    '/_sandbox/journal.har': {
      get: {
        operationId: 'journalHar',
        tags: ['Control API'],
        summary: 'The journal as HAR 1.2, oldest first: all of it (at most --journal-limit entries), not paged',
        description:
          "The journal entries the filters select, as a HAR 1.2 log for a browser's network panel, Postman, Insomnia or Charles; the sandbox's own fields (journal id, token view, findings, fault …) start with an underscore, as HAR allows. Sent as an attachment.",
        parameters: [...journalParameters(), { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 }, description: 'At most this many of the newest entries' }],
        // In place, not a component: the HAR shape belongs to this one answer.
        responses: controlResponses({ '200': controlOk('A HAR log', harSchema()) }, { invalid: JOURNAL_FILTER_PROBLEMS }),
      },
    },
    '/_sandbox/journal/{id}': getById(
      'journalEntry',
      'One journal entry',
      'The entry with this journal id (j-000042), as the list shows it.',
      'The entry',
      ref('JournalEntry'),
      'no entry with this id: never written, or dropped (the journal keeps --journal-limit entries)',
    ),
  };
}

function journalParameters() {
  return [
    { name: 'path', in: 'query', schema: { type: 'string' }, description: 'Entries whose path contains this' },
    { name: 'status', in: 'query', schema: { type: 'string' }, description: 'A status (401) or a class (4xx)' },
    { name: 'location', in: 'query', schema: { type: 'string' } },
    { name: 'since', in: 'query', schema: { type: 'string' }, description: 'ISO time or ms since the epoch' },
    { name: 'after', in: 'query', schema: { type: 'string', pattern: '^j-\\d+$' }, description: 'Entries newer than this journal id (j-000042): what happened since an entry you have seen' },
    { name: 'direction', in: 'query', schema: { enum: ['inbound', 'outbound'] } },
    { name: 'order', in: 'query', schema: { type: 'string' }, description: 'Entries about this OrderId' },
    { name: 'fault', in: 'query', schema: { type: 'string' }, description: 'true: entries a fault acted on; false: the others; else a rule id' },
    { name: 'findings', in: 'query', schema: { enum: ['true', 'false'] }, example: 'true', description: 'true: entries with at least one finding; false: entries with none' },
  ];
}

const nameValues = {
  type: 'array',
  items: { type: 'object', required: ['name', 'value'], additionalProperties: false, properties: { name: { type: 'string' }, value: { type: 'string' } } },
};

/** The JournalEntry schema: what server/journal/journal-entry.ts writes. */
export function journalSchemas(): Record<string, object> {
  return {
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
}

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

/** HAR 1.2 as server/journal/har.ts writes it: the parts it writes, and nothing else. */
function harSchema(): object {
  return {
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
}
