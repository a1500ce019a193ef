/**
 * The sandbox's documents and record logs in PostgreSQL: the same DocumentStorage as the files, so every guarantee of
 * the store above it (a 2xx only once committed, group commits, the check of everything stored at start, the
 * retention) holds unchanged. A document is one row (`sandbox_documents`), an append to a record log one row
 * (`sandbox_log_appends`, in the order of its sequence); every row belongs to one partner, and a storage reads and
 * writes only its own partner's rows. The tables are made by the migrations of db-migrations/ (open-postgres.ts).
 *
 * Bodies are kept as the text the files would hold, and read back by the same decoders: a stored state is checked
 * by the same schemas, whichever the store.
 */
import type { Pool, PoolClient } from 'pg';
import { postgresHistory } from './postgres-history.js';
import type { Adapter } from 'lowdb';
import { decodeJsonFile } from './decode-json-file.js';
import { decodeLogFile } from './decode-log-file.js';
import { readRefundLine } from './refund-line.js';
import { parseLogName, parseSegmentName } from './segment-names.js';
import type { DocumentStorage } from './segment-storage.js';
import type { StoredDocuments, StoredEntry } from './stored-documents.js';
import { StoreError } from './store-error.js';

/**
 * Writes to one document or log run one after the other, in the order they were asked for: on a pool they would
 * otherwise race on different connections, and an older version could land last (the files' writers serialize the
 * same way).
 */
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

/**
 * An instance's lead of the partner (several instances on one database, server/cluster/): its writes go through only
 * while the partner's epoch is still this one. The leaders' row is read FOR SHARE by each write, so a new leader's
 * epoch change waits for the writes under way, and its start reads them; any write after it is refused.
 */
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
