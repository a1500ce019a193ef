/** Pure: journal entries → a HAR 1.2 log, for browsers' network panels, Postman, Insomnia and Charles. */
import { STATUS_CODES } from 'node:http';
import type { JournalEntry } from './journal-entry.js';
import { setImmediate as yieldToOthers, setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'express';

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

/** Written an entry at a time, redacted as it goes, with backpressure and the event loop given back between batches, so other partners are answered meanwhile. */

/** Bytes written before the event loop is given back. */
const BATCH_BYTES = 64 * 1024;
/** Or after this many milliseconds of the event loop. */
const BATCH_MS = 10;

/** Writes the HAR log of the entries `ids` names (an entry dropped meanwhile is left out); resolves once it ended or the client left. */
export async function writeHar(
  res: Response,
  ids: readonly string[],
  entryOf: (id: string) => JournalEntry | undefined,
  options: { creator: { name: string; version: string }; baseUrl: string; bytesPerSecond?: number | null },
): Promise<void> {
  const started = performance.now();
  let written = 0;
  const gone = () => res.destroyed || res.writableEnded;
  const write = async (chunk: string): Promise<void> => {
    if (res.write(chunk) || gone()) return;
    await new Promise<void>((resolve) => {
      const settle = () => {
        res.off('drain', settle);
        res.off('close', settle);
        resolve();
      };
      res.on('drain', settle);
      res.on('close', settle);
    });
  };
  res.status(200);
  await write(`{"log":{"version":"1.2","creator":${JSON.stringify(options.creator)},"entries":[`);
  let first = true;
  let sinceYield = 0;
  let turnStarted = performance.now();
  for (const id of ids) {
    if (gone()) return;
    const entry = entryOf(id);
    if (entry === undefined) continue;
    const text = JSON.stringify(harEntry(entry, options.baseUrl));
    await write(first ? text : `,${text}`);
    first = false;
    sinceYield += text.length;
    written += text.length;
    // Entries never read before are redacted as they are written: a batch also ends after its time.
    if (sinceYield >= BATCH_BYTES || performance.now() - turnStarted >= BATCH_MS) {
      sinceYield = 0;
      // At most bytesPerSecond on average (a hosted partner's quota), so an export takes a bounded share of the process.
      const ahead = options.bytesPerSecond ? (written / options.bytesPerSecond) * 1000 - (performance.now() - started) : 0;
      await (ahead > 1 ? sleep(ahead) : yieldToOthers());
      turnStarted = performance.now();
    }
  }
  if (!gone()) res.end(']}}');
}
