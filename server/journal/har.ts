/** Pure: journal entries → a HAR 1.2 log, for browsers' network panels, Postman, Insomnia and Charles. */
import { STATUS_CODES } from 'node:http';
import type { JournalEntry } from './journal-entry.js';

export function toHar(entries: JournalEntry[], creator: { name: string; version: string }, baseUrl: string) {
  return { log: { version: '1.2', creator, entries: entries.map((entry) => harEntry(entry, baseUrl)) } };
}

/** One journal entry as a HAR entry. */
export function harEntry(entry: JournalEntry, baseUrl: string) {
  const requestText = bodyText(entry.request.body, entry.request.bodyText);
  const responseText = bodyText(entry.response.body, undefined);
  const query = new URLSearchParams(entry.query).toString();
  return {
    startedDateTime: entry.time,
    time: entry.latencyMs,
    request: {
      method: entry.method,
      // An outbound entry went to the POS, not to the sandbox.
      url: entry.url ?? `${baseUrl}${entry.path}${query ? `?${query}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.request.headers),
      queryString: pairs(entry.query),
      ...(requestText === undefined ? {} : { postData: { mimeType: entry.request.headers['content-type'] ?? 'application/json', text: requestText } }),
      headersSize: -1,
      bodySize: entry.request.bodyBytes,
    },
    response: {
      status: entry.response.status,
      statusText: STATUS_CODES[entry.response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(entry.response.headers),
      content: {
        size: responseText === undefined ? 0 : Buffer.byteLength(responseText),
        mimeType: entry.response.headers['content-type'] ?? 'x-unknown',
        ...(responseText === undefined ? {} : { text: responseText }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseText === undefined ? 0 : Buffer.byteLength(responseText),
    },
    cache: {},
    timings: { send: 0, wait: entry.latencyMs, receive: 0 },
    // HAR allows custom fields that start with an underscore.
    _journalId: entry.id,
    _requestId: entry.requestId,
    _token: entry.token,
    ...(entry.tokenDefects ? { _tokenDefects: entry.tokenDefects } : {}),
    _findings: entry.findings,
    _direction: entry.direction,
    ...(entry.menuUpdate ? { _menuUpdate: entry.menuUpdate } : {}),
    ...(entry.orderId ? { _orderId: entry.orderId } : {}),
    ...(entry.delivery ? { _delivery: entry.delivery } : {}),
    ...(entry.fault ? { _fault: entry.fault } : {}),
    ...(entry.response.error ? { _error: entry.response.error } : {}),
  };
}

function pairs(record: Record<string, string>): Array<{ name: string; value: string }> {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function bodyText(body: unknown, text: string | undefined): string | undefined {
  if (text !== undefined) return text;
  return body === undefined ? undefined : JSON.stringify(body);
}
