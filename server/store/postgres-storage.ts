/** The sandbox's documents and record logs in PostgreSQL, behind the same DocumentStorage as the files, so every guarantee of the store holds; every row is one partner's, and bodies are the files' text, read by the same decoders. */
import type { Pool, PoolClient } from 'pg';
import type { Adapter } from 'lowdb';
import { decodeJsonFile } from './decode-json-file.js';
import { decodeLogFile, readRefundLine } from './decode-log-file.js';
import { parseLogName, parseSegmentName } from './segment-names.js';
import type { DocumentStorage } from './segment-storage.js';
import type { StoredDocuments, StoredEntry } from './read-stored-files.js';
import { StoreError } from './sandbox-store.js';
import type { HistoryStore } from '../journal/history-keeper.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import { journalSequence } from '../journal/journal.js';
import type { SandboxEvent } from '../events/sandbox-events.js';

/** Writes to one document or log run in the order asked, or an older version could land last on another connection. */
class NameQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(name, tail);
    // Forgotten once idle, so a storage that sees many names does not keep them all.
    void tail.then(() => {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return next;
  }
}

/** An instance's lead of the partner: its writes go through only while the epoch is still its own (the leaders' row read FOR SHARE by each write). */
export interface WriteFence {
  epoch: number;
  /** Told when a write was refused: another instance leads the partner now. */
  onFenced(): void;
}

/** A write refused because another instance leads the partner now: nothing of it was stored. */
export class FencedError extends StoreError {
  constructor(partner: string) {
    super(`this instance no longer leads partner '${partner}': another instance took it over, and this write was not stored`);
  }
}

/** `where`: the database for people (its URL without a password) and the partner. */
export function postgresStorage(pool: Pool, partner: string, where: string, fence?: WriteFence): DocumentStorage {
  const queue = new NameQueue();
  // Without a fence, a CTE that always yields one row: the same statements either way.
  const fenced = fence === undefined ? 'SELECT 1' : 'SELECT 1 FROM sandbox_leaders WHERE partner = $1 AND epoch = $4 FOR SHARE';
  const fenceValues = fence === undefined ? [] : [fence.epoch];
  const refuse = (): never => {
    fence?.onFenced();
    throw new FencedError(partner);
  };
  /** One statement that writes only while this instance leads the partner; refused (and told) otherwise. */
  const write = async (sql: string, values: unknown[]) => {
    const { rowCount } = await pool.query(`WITH fence AS (${fenced}) ${sql}`, [...values, ...fenceValues]);
    if (rowCount === 0) refuse();
  };
  /** The fence taken first in a transaction of several statements. */
  const checkFence = async (client: PoolClient) => {
    if (fence === undefined) return;
    const { rowCount } = await client.query('SELECT 1 FROM sandbox_leaders WHERE partner = $1 AND epoch = $2 FOR SHARE', [partner, fence.epoch]);
    if (rowCount === 0) refuse();
  };
  return {
    where,
    persistent: true,
    kind: 'postgres',
    ping: async () => void (await pool.query('SELECT 1')),
    history: postgresHistory(pool, partner),
    open<T>(name: string): Adapter<T> {
      return {
        async read(): Promise<T | null> {
          const { rows } = await pool.query<{ body: string }>('SELECT body FROM sandbox_documents WHERE partner = $1 AND name = $2', [partner, name]);
          return rows[0] === undefined ? null : (JSON.parse(rows[0].body) as T);
        },
        write: (data: T) =>
          queue.run(name, () =>
            write(
              'INSERT INTO sandbox_documents (partner, name, body) SELECT $1, $2, $3 FROM fence ON CONFLICT (partner, name) DO UPDATE SET body = EXCLUDED.body',
              [partner, name, JSON.stringify(data)],
            ),
          ),
      };
    },
    append: (name: string, text: string) =>
      queue.run(name, () => write('INSERT INTO sandbox_log_appends (partner, name, body) SELECT $1, $2, $3 FROM fence', [partner, name, text])),
    rewrite: (name: string, text: string) =>
      queue.run(name, () =>
        inTransaction(pool, async (client) => {
          await checkFence(client);
          await client.query('DELETE FROM sandbox_log_appends WHERE partner = $1 AND name = $2', [partner, name]);
          await client.query('INSERT INTO sandbox_log_appends (partner, name, body) VALUES ($1, $2, $3)', [partner, name, text]);
        }),
      ),
    readLog: (name: string) =>
      queue.run(name, async () => {
        const { rows } = await pool.query<{ body: string | null }>("SELECT string_agg(body, '' ORDER BY seq) AS body FROM sandbox_log_appends WHERE partner = $1 AND name = $2", [partner, name]);
        return rows[0]?.body ?? '';
      }),
    remove: (name: string) =>
      queue.run(name, () =>
        inTransaction(pool, async (client) => {
          await checkFence(client);
          await client.query('DELETE FROM sandbox_documents WHERE partner = $1 AND name = $2', [partner, name]);
          await client.query('DELETE FROM sandbox_log_appends WHERE partner = $1 AND name = $2', [partner, name]);
        }),
      ),
    async readAll(): Promise<StoredDocuments> {
      // One snapshot for both tables: a commit of another connection cannot fall between the two reads.
      const [documents, logs] = await inTransaction(
        pool,
        async (client) => [
          (await client.query<{ name: string; body: string }>('SELECT name, body FROM sandbox_documents WHERE partner = $1', [partner])).rows,
          (await client.query<{ name: string; body: string }>("SELECT name, string_agg(body, '' ORDER BY seq) AS body FROM sandbox_log_appends WHERE partner = $1 GROUP BY name", [partner])).rows,
        ],
        'REPEATABLE READ READ ONLY',
      );
      const path = (name: string) => `${where}#${name}`;
      const entries: StoredEntry[] = [];
      let state: StoredDocuments['state'];
      for (const { name, body } of documents) {
        const content = decodeJsonFile(Buffer.from(body, 'utf8'));
        if (name === 'state') state = content;
        else if (parseSegmentName(name)) entries.push({ file: `${name}.json`, path: path(name), segment: { name, content } });
        // A row the sandbox never writes (a hand edit): named, so the check says what it is.
        else entries.push({ file: name, path: path(name) });
      }
      for (const { name, body } of logs) {
        const content = decodeLogFile(Buffer.from(body, 'utf8'), readRefundLine);
        entries.push(parseLogName(name) ? { file: `${name}.jsonl`, path: path(name), log: { name, content } } : { file: name, path: path(name) });
      }
      entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      return { dataFile: `${where}#state`, segmentsFolder: where, state, folder: 'present', entries };
    },
  };
}

type Client = PoolClient;

/** Runs `work` in one transaction on one connection of the pool; rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, work: (client: Client) => Promise<T>, mode = ''): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN${mode ? ` ISOLATION LEVEL ${mode}` : ''}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A partner's journal and event backlog in PostgreSQL (history-keeper.ts): its rows of sandbox_journal and sandbox_events. */

export function postgresHistory(pool: Pool, partner: string): HistoryStore {
  return {
    async load(journalLimit, eventsKept) {
      const entries = await pool.query<{ entry: string }>('SELECT entry FROM (SELECT seq, entry FROM sandbox_journal WHERE partner = $1 ORDER BY seq DESC LIMIT $2) last ORDER BY seq', [partner, journalLimit]);
      const events = await pool.query<{ event: string }>('SELECT event FROM (SELECT id, event FROM sandbox_events WHERE partner = $1 ORDER BY id DESC LIMIT $2) last ORDER BY id', [partner, eventsKept]);
      return { entries: entries.rows.map((row) => JSON.parse(row.entry) as JournalEntry), events: events.rows.map((row) => JSON.parse(row.event) as SandboxEvent) };
    },
    // One statement a save: the pool it shares with every partner's commits is taken once, whatever was saved.
    async save(entries, events, journalLimit, eventsKept) {
      if (entries.length === 0 && events.length === 0) return;
      const seqs = entries.map((entry) => journalSequence(entry.id));
      const newest = seqs.length === 0 ? 0 : Math.max(...seqs);
      await pool.query(
        `WITH journal AS (INSERT INTO sandbox_journal (partner, seq, entry) SELECT $1, * FROM unnest($2::bigint[], $3::text[]) ON CONFLICT DO NOTHING),
              held AS (INSERT INTO sandbox_events (partner, id, event) SELECT $1, * FROM unnest($4::bigint[], $5::text[]) ON CONFLICT DO NOTHING),
              old_entries AS (DELETE FROM sandbox_journal WHERE partner = $1 AND seq <= $6)
         DELETE FROM sandbox_events WHERE partner = $1 AND id <= $7`,
        [partner, seqs, entries.map((entry) => JSON.stringify(entry)), events.map((event) => event.id), events.map((event) => JSON.stringify(event)), newest - journalLimit, (events.at(-1)?.id ?? 0) - eventsKept],
      );
    },
  };
}
