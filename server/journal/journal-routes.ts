/** The journal: its entries (filtered, paged), one entry, the HAR export, clearing it; and which texts hold a secret. */
import { ApiError } from '../errors.js';
import { describeValue } from '../http/messages.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlRoute } from '../http/route.js';
import { checkQuery, JOURNAL_PAGE, JOURNAL_PAGE_BYTES, jsonBody, parsePageLimit, sendPage, type PageSize } from '../control/control-query.js';
import type { QuotaBook } from '../hosted/quotas.js';
import { byId, controlOk, controlResponses, json, ref, pagedOk, pageParameters } from '../openapi/openapi-parts.js';
import { writeHar } from './har.js';
import { harSchema } from './journal-schemas.js';
import type { Journal, JournalFilter } from './journal.js';
import type { Redactor } from './redactor.js';

type JournalDeps = { journal: Journal; quota: QuotaBook; version: string };

const FILTER_PROBLEMS = 'an unknown query parameter, or a filter that does not parse (status, since, direction, findings, after, before, limit)';
const FILTERS = [
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

/** The journal's filters and, with `page`, its page (limit with its default and maximum, and before); the HAR export takes any limit. */
export function journalFilter(query: Record<string, unknown>, page?: PageSize): JournalFilter {
  const { path, status, location, since, after, before, limit, direction, order, fault, findings } = checkQuery(query, ['path', 'status', 'location', 'since', 'after', 'before', 'limit', 'direction', 'order', 'fault', 'findings']);
  const problems: string[] = [];
  if (direction !== undefined && direction !== 'inbound' && direction !== 'outbound') problems.push(`direction must be inbound or outbound, got '${direction}'`);
  if (findings !== undefined && findings !== 'true' && findings !== 'false') problems.push(`findings must be true (entries with a finding) or false (entries with none), got '${findings}'`);
  if (status !== undefined && !/^(\d{3}|\dxx)$/i.test(status)) problems.push(`status must be a status code (401) or a class (4xx), got '${status}'`);
  const sinceMs = since === undefined ? undefined : /^\d+$/.test(since) ? Number(since) : Date.parse(since);
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) problems.push(`since must be an ISO time or milliseconds since the epoch, got '${since}'`);
  for (const [name, value] of [['after', after], ['before', before]] as const) {
    if (value !== undefined && !/^j-\d+$/.test(value)) problems.push(`${name} must be a journal id such as j-000042, got '${value}'`);
  }
  let limitN = limit === undefined ? undefined : Number(limit);
  if (page !== undefined) {
    const parsed = parsePageLimit(limit, page);
    if (parsed.ok) limitN = parsed.limit;
    else problems.push(parsed.problem);
  } else if (limitN !== undefined && (!Number.isInteger(limitN) || limitN < 1)) problems.push(`limit must be a whole number from 1, got '${limit}'`);
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return {
    path,
    status,
    location,
    since: sinceMs,
    ...(after === undefined ? {} : { after }),
    ...(before === undefined ? {} : { before }),
    limit: limitN,
    direction: direction as JournalFilter['direction'],
    orderId: order,
    fault,
    findings: findings === undefined ? undefined : findings === 'true',
  };
}

export const journalRoute: ControlRoute<JournalDeps> = {
  method: 'GET',
  path: '/_sandbox/journal',
  api: 'control',
  unredacted: true,
  handle: ({ journal }) => (req, res) => {
    const filter = journalFilter(req.query, JOURNAL_PAGE);
    sendPage(req, res, journal.page(filter, filter.limit!, JOURNAL_PAGE_BYTES), 'before');
  },
  doc: {
    operationId: 'journal',
    summary: `Journal entries, newest first, a page at a time (${JOURNAL_PAGE.defaultLimit} unless limit says otherwise)`,
    description:
      'Every call to the POS API, rejected ones included, and every delivery of an order to the POS, with headers, bodies, the token as header and claims (never the key or a signature), findings and the fault that acted. A typo in a filter answers 400 instead of returning everything.',
    parameters: [...FILTERS, ...pageParameters('before', JOURNAL_PAGE)],
    responses: controlResponses({ '200': pagedOk('Entries', { type: 'array', items: ref('JournalEntry') }) }, { invalid: FILTER_PROBLEMS }),
    examples: { status: '4xx', after: 'j-000001', before: 'j-000100' },
  },
};

export const clearJournalRoute: ControlRoute<JournalDeps> = {
  method: 'DELETE',
  path: '/_sandbox/journal',
  api: 'control',
  unredacted: true,
  handle: ({ journal }) => (_req, res) => {
    journal.clear();
    res.json({ cleared: true });
  },
  doc: {
    operationId: 'clearJournal',
    summary: 'Clear the journal',
    description: 'Drops every journal entry; refunds, orders and menus stay.',
    responses: controlResponses({ '200': controlOk('Cleared', { type: 'object', properties: { cleared: { const: true } } }) }, { changesState: true }),
  },
};

export const journalHarRoute: ControlRoute<JournalDeps> = {
  method: 'GET',
  path: '/_sandbox/journal.har',
  api: 'control',
  // Streamed, an entry at a time: one string of a whole journal held every other request back and doubled the memory.
  handle: ({ journal, quota, version }) => async (req, res) => {
    const filter = journalFilter(req.query);
    const end = quota.startHarExport();
    res.once('close', end);
    const ids = journal.ids(filter).reverse();
    const baseUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set({ 'content-type': 'application/json; charset=utf-8', 'content-disposition': 'attachment; filename="pos-sandbox-journal.har"' });
    await writeHar(res, ids, (id) => journal.get(id), { creator: { name: 'pos-sandbox', version }, baseUrl, bytesPerSecond: quota.quotas.harExportBytesPerSecond });
    end();
  },
  doc: {
    operationId: 'journalHar',
    summary: 'The journal as HAR 1.2, oldest first: all of it (at most --journal-limit entries), not paged',
    description:
      "The journal entries the filters select, as a HAR 1.2 log for a browser's network panel, Postman, Insomnia or Charles; the sandbox's own fields (journal id, token view, findings, fault …) start with an underscore, as HAR allows. Sent as an attachment.",
    parameters: [...FILTERS, { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 }, description: 'At most this many of the newest entries' }],
    // In place, not a component: the HAR shape belongs to this one answer.
    responses: controlResponses({ '200': controlOk('A HAR log', harSchema) }, { invalid: FILTER_PROBLEMS }),
    examples: { status: '4xx', after: 'j-000001' },
  },
};

export const journalEntryRoute: ControlRoute<JournalDeps> = {
  method: 'GET',
  path: '/_sandbox/journal/:id',
  api: 'control',
  unredacted: true,
  handle: ({ journal }) => (req, res) => {
    const entry = journal.get(String(req.params.id));
    if (!entry) throw new ApiError('NOT_FOUND', `no journal entry '${req.params.id}'; it may have been dropped (the journal keeps ${journal.limit})`);
    res.json(entry);
  },
  doc: byId(
    'journalEntry',
    'One journal entry',
    'The entry with this journal id (j-000042), as the list shows it.',
    'The entry',
    ref('JournalEntry'),
    'no entry with this id: never written, or dropped (the journal keeps --journal-limit entries)',
    'j-000001',
  ),
};

/** At most this many texts a call, each at most this long: what a report's fields need. */
const MAX_TEXTS = 50;
const MAX_TEXT_LENGTH = 4096;

/** Does `text` hold a secret the redaction would take out? */
export function holdsSecret(redactor: Redactor, text: string): boolean {
  return redactor.text(text) !== text;
}

function checkTexts(body: unknown): Record<string, string> {
  const texts = (body as { texts?: unknown } | null)?.texts;
  const problem = (() => {
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).some((field) => field !== 'texts')) return `body must be {"texts": {"<name>": "<text>", …}}, got ${describeValue(body)}`;
    if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return `texts must be an object of names and texts, got ${describeValue(texts)}`;
    const entries = Object.entries(texts);
    if (entries.length > MAX_TEXTS) return `texts holds ${entries.length} texts; at most ${MAX_TEXTS} are checked at once`;
    const wrong = entries.find(([, text]) => typeof text !== 'string' || text.length > MAX_TEXT_LENGTH);
    return wrong === undefined ? undefined : `texts.${wrong[0]} must be a string of at most ${MAX_TEXT_LENGTH} characters, got ${describeValue(wrong[1])}`;
  })();
  if (problem !== undefined) throw new ApiError('INVALID_REQUEST', problem);
  return texts as Record<string, string>;
}

/** The checklist asks it of a report's fields before a run (the CLI does not know the key); it answers names, never texts. */
export const secretsCheckRoute: ControlRoute<{ journal: Journal }> = {
  method: 'POST',
  path: '/_sandbox/secrets/check',
  api: 'control',
  handle: ({ journal }) => [
    readJsonBody,
    (_req, res) => {
      const texts = checkTexts(jsonBody(res));
      res.json({ holding: Object.entries(texts).filter(([, text]) => holdsSecret(journal.redactor, text)).map(([name]) => name) });
    },
  ],
  doc: {
    operationId: 'checkSecrets',
    summary: "Which texts hold the partner's key or a token",
    description:
      "The names of the texts that hold the partner's non-prod key or a signed token, as the redaction of every output finds them (any letter case, every encoding it decodes). The checklist asks it of a report's fields before a run. It answers names only, never a text.",
    requestBody: {
      required: true,
      content: json({ type: 'object', required: ['texts'], additionalProperties: false, properties: { texts: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', maxLength: 4096 } } } }),
    },
    responses: controlResponses(
      { '200': controlOk('The names of the texts that hold one', { type: 'object', required: ['holding'], properties: { holding: { type: 'array', items: { type: 'string' } } } }) },
      { invalid: 'a body that is not {"texts": {...}}, more than 50 texts, or one that is not a string of at most 4096 characters', changesState: true, readsBody: true },
    ),
  },
};
