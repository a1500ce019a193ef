/** Pure: a journal entry in a line's worth of fields, for the event stream (GET /_sandbox/journal/:id has the rest). */
import type { JournalEntry } from './journal-entry.js';

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

/**
 * The summary with each of its strings passed through `scrub`: what the redactor's generic walk gives for it, without
 * the walk. Every request's summary is redacted as it is kept, so this is on the hot path; the field names are the
 * summary's own, not a client's, and need no scrubbing; nor do the values the sandbox makes itself (the entry's id,
 * its time, the finding codes) or Node's HTTP parser allows (the method, one of a fixed list).
 */
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
