/** Pure: the journal entry of one delivery attempt to the POS, redacted like every inbound one. */
import { bodyForJournal, redactHeaders, viewToken, type JournalEntry, type JournalFault } from '../journal/journal-entry.js';
import type { Finding } from '../http/findings.js';
import type { PostOrderResult } from './post-order.js';

export interface OutboundAttempt {
  id: string;
  requestId: string;
  startedAt: number;
  latencyMs: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  result: PostOrderResult;
  orderId: string;
  locationId: string;
  partner: string;
  delivery: { dispatch: number; attempt: number; of: number; verdict: string; copy?: number };
  findings: Finding[];
  fault?: JournalFault;
}

/** The journal redacts it on the way in (the key, the token's signature), like every entry. */
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
