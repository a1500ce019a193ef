/** Pure: what the journal keeps of one request, with every secret taken out. */
import { createHash } from 'node:crypto';
import type { Finding } from '../http/findings.js';
import type { MenuUpdateOutcome } from '../menus/apply-menu-update.js';
import type { TokenDefect } from '../tokens/pos-token-rules.js';
import { MAX_JSON_DEPTH, decodeJsonPart, jsonDepth } from '../http/json-text.js';

export interface TokenView {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  /** sha256 of the whole token: tells two tokens apart without keeping either. */
  sha256: string;
  /** Set when the Authorization header held no decodable JWT. */
  unreadable?: string;
}

/** The fault rule that acted on a request: its id (or x-sandbox-fault), what it did and where it came from. */
export interface JournalFault {
  rule: string;
  kind: string;
  source: 'api' | 'file' | 'header';
  description?: string;
}

export interface JournalEntry {
  id: string;
  requestId: string;
  time: string;
  /** inbound: the POS called the sandbox; outbound: the sandbox delivered an order to the POS. */
  direction: 'inbound' | 'outbound';
  method: string;
  path: string;
  /** Outbound: the whole URL the order went to. */
  url?: string;
  query: Record<string, string>;
  locationId?: string;
  partner?: string;
  token?: TokenView;
  /** A call refused with 401: every defect of its token (or query string), each with the part it is about. */
  tokenDefects?: TokenDefect[];
  request: { headers: Record<string, string>; body?: unknown; bodyText?: string; bodyBytes: number };
  /** status 0 when the POS never answered; `error` then says why. */
  response: { status: number; headers: Record<string, string>; body?: unknown; error?: string };
  latencyMs: number;
  findings: Finding[];
  /** An accepted menu update: its form, location and every name and price it changed. */
  menuUpdate?: MenuUpdateOutcome;
  /** The order this entry is about: an outbound delivery, or the POS's status call. */
  orderId?: string;
  /** Outbound: which dispatch (1, then one more per resend) and which try within it (1 to 3). */
  delivery?: { dispatch: number; attempt: number; of: number; verdict: string; copy?: number };
  /** The fault rule that acted on this request or delivery try. */
  fault?: JournalFault;
}

// Hashed all the same: the forward proof vouches for one request for seconds, and a partner is not told its instances' ids.
const SECRET_HEADERS = new Set(['x-api-key', 'cookie', 'proxy-authorization', 'x-sandbox-forward-proof', 'x-sandbox-forward-key', 'x-sandbox-forwarded-by']);
/** Bodies are kept up to this size; the journal is for reading, not for replaying megabytes. */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The token of an Authorization header as header + claims + hash: never the signature. */
export function viewToken(authorization: string | undefined): TokenView | undefined {
  if (authorization === undefined) return undefined;
  const token = authorization.replace(/^\s*bearer\s+/i, '').trim();
  if (token === '') return undefined;
  const [header, claims] = token.split('.').slice(0, 2).map((part) => decodeJsonPart(part));
  if (header === undefined || claims === undefined) return { sha256: sha256(token), unreadable: 'not a JWT' };
  return { header, claims, sha256: sha256(token) };
}

/** Headers as the journal shows them: the token replaced by its hash, keys by theirs. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (name === 'authorization') {
      const scheme = /^\s*(\S+)/.exec(value)?.[1] ?? '';
      const rest = value.slice(value.indexOf(scheme) + scheme.length).trim();
      shown[name] = `${scheme} [redacted sha256:${sha256(rest || value).slice(0, 16)}]`;
    } else if (SECRET_HEADERS.has(name)) {
      shown[name] = `[redacted sha256:${sha256(value).slice(0, 16)}]`;
    } else {
      shown[name] = value;
    }
  }
  return shown;
}

/** A body for the journal: parsed JSON when it is JSON, else its text, both cut to JOURNAL_BODY_LIMIT. */
export function bodyForJournal(text: string | undefined): { body?: unknown; bodyText?: string } {
  if (text === undefined || text === '') return {};
  if (text.length <= JOURNAL_BODY_LIMIT) {
    // A body nested deeper than any request may be is kept as the text it was: nothing walks it.
    if (jsonDepth(text) > MAX_JSON_DEPTH) return { bodyText: text };
    try {
      return { body: JSON.parse(text) };
    } catch {
      return { bodyText: text };
    }
  }
  return { bodyText: `${text.slice(0, JOURNAL_BODY_LIMIT)}… [${text.length - JOURNAL_BODY_LIMIT} more characters not kept]` };
}

export interface OutboundAttempt {
  id: string;
  requestId: string;
  startedAt: number;
  latencyMs: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  result: { status?: number; bodyText?: string; error?: string; responseHeaders?: Record<string, string> };
  orderId: string;
  locationId: string;
  partner: string;
  delivery: { dispatch: number; attempt: number; of: number; verdict: string; copy?: number };
  findings: Finding[];
  fault?: JournalFault;
}

/** The journal entry of one try; the journal redacts it on the way in, like every entry. */
export function outboundEntry(attempt: OutboundAttempt): JournalEntry {
  const { result } = attempt;
  const reply = result.bodyText === undefined ? {} : bodyForJournal(result.bodyText);
  const entry: JournalEntry = {
    id: attempt.id,
    requestId: attempt.requestId,
    time: new Date(attempt.startedAt).toISOString(),
    direction: 'outbound',
    method: 'POST',
    path: new URL(attempt.url).pathname,
    url: attempt.url,
    query: {},
    locationId: attempt.locationId,
    partner: attempt.partner,
    token: viewToken(attempt.headers.authorization),
    request: { headers: redactHeaders(attempt.headers), ...bodyForJournal(attempt.body), bodyBytes: Buffer.byteLength(attempt.body) },
    response: {
      status: result.status ?? 0,
      headers: result.responseHeaders ?? {},
      ...(reply.body !== undefined ? { body: reply.body } : reply.bodyText !== undefined ? { body: reply.bodyText } : {}),
      ...(result.error === undefined ? {} : { error: result.error }),
    },
    latencyMs: attempt.latencyMs,
    findings: attempt.findings,
    orderId: attempt.orderId,
    delivery: attempt.delivery,
    ...(attempt.fault ? { fault: attempt.fault } : {}),
  };
  return entry;
}

/** Pure: a journal entry in a line's worth of fields, for the event stream (GET /_sandbox/journal/:id has the rest). */

export interface JournalSummary {
  id: string;
  time: string;
  direction: JournalEntry['direction'];
  method: string;
  path: string;
  status: number;
  /** How long the call (or the delivery try) took, ms. */
  latencyMs: number;
  locationId?: string;
  orderId?: string;
  requestId: string;
  findings: string[];
  error?: string;
  /** The id of the fault rule that acted, when one did. */
  fault?: string;
}

/** What a summary is made of: an entry, or the parts of one captured before it is built. */
export type SummarySource = Pick<JournalEntry, 'id' | 'time' | 'direction' | 'method' | 'path' | 'latencyMs' | 'locationId' | 'orderId' | 'requestId' | 'fault'> & {
  response: Pick<JournalEntry['response'], 'status' | 'error'>;
  findings: ReadonlyArray<Pick<JournalEntry['findings'][number], 'code'>>;
};

export function journalSummary(entry: SummarySource): JournalSummary {
  return {
    id: entry.id,
    time: entry.time,
    direction: entry.direction,
    method: entry.method,
    path: entry.path,
    status: entry.response?.status,
    latencyMs: entry.latencyMs,
    ...(entry.locationId === undefined ? {} : { locationId: entry.locationId }),
    ...(entry.orderId === undefined ? {} : { orderId: entry.orderId }),
    requestId: entry.requestId,
    // Tolerant of a partial entry (a hand-made one in a test): the journal summarises whatever it is given.
    findings: (entry.findings ?? []).map((found) => found.code),
    ...(entry.response?.error === undefined ? {} : { error: entry.response.error }),
    ...(entry.fault === undefined ? {} : { fault: entry.fault.rule }),
  };
}

/** Each string scrubbed, but for the fields the sandbox writes itself: every summary passes here as it is kept. */
export function scrubSummary(summary: JournalSummary, scrub: (text: string) => string, scrubRecurring: (text: string) => string = scrub): JournalSummary {
  const text = (value: string | undefined) => (typeof value === 'string' ? scrub(value) : value);
  // The path and the location come back call after call: `scrubRecurring` may remember those it found clean.
  const recurring = (value: string | undefined) => (typeof value === 'string' ? scrubRecurring(value) : value);
  return {
    id: summary.id,
    time: summary.time,
    direction: summary.direction,
    method: summary.method,
    path: recurring(summary.path)!,
    status: summary.status,
    latencyMs: summary.latencyMs,
    ...('locationId' in summary ? { locationId: recurring(summary.locationId) } : {}),
    ...('orderId' in summary ? { orderId: text(summary.orderId) } : {}),
    requestId: text(summary.requestId)!,
    findings: summary.findings,
    ...('error' in summary ? { error: text(summary.error) } : {}),
    ...('fault' in summary ? { fault: text(summary.fault) } : {}),
  };
}
