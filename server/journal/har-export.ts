/**
 * A HAR export written to the response an entry at a time: each entry is rendered (redacted) and serialized as it is
 * written, the response's backpressure is waited on, and the event loop is given back between batches, so other
 * partners' requests are answered while a large journal goes out.
 */
import { setImmediate as yieldToOthers, setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'express';
import { harEntry } from './har.js';
import type { JournalEntry } from './journal-entry.js';

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
      // At most bytesPerSecond on average (a hosted partner's quota): an export then takes a bounded share of the
      // process, however large the journal and however often it is asked for.
      const ahead = options.bytesPerSecond ? (written / options.bytesPerSecond) * 1000 - (performance.now() - started) : 0;
      await (ahead > 1 ? sleep(ahead) : yieldToOthers());
      turnStarted = performance.now();
    }
  }
  if (!gone()) res.end(']}}');
}
