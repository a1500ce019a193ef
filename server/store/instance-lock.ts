/**
 * One instance per partner's state on a database: each instance keeps its partners' state in memory, so a second one
 * on the same rows would disagree with the first. An instance holds a session-level advisory lock per partner on a
 * connection of its own for as long as it runs; PostgreSQL releases it when that connection ends, however the
 * process ended (a SIGKILL included). The connection is named for the instance, so a refused start can say who holds
 * the lock.
 */
import pg from 'pg';
import { StoreError } from './store-error.js';

/** The first key of every lock the sandbox takes; the partner's name hashed is the second. */
const LOCK_SPACE = 'pos-sandbox partner';

export interface InstanceLock {
  release(): Promise<void>;
}

export async function lockPartners(url: string, where: string, partners: string[], instanceId: string): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: url, application_name: `pos-sandbox ${instanceId}`.slice(0, 63) });
  await client.connect();
  // A lost lock connection would leave the instance serving without its lock: it is reported, and the process keeps
  // serving what it has (the next start of another instance can then take the partner).
  client.on('error', () => undefined);
  try {
    for (const partner of partners) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', [LOCK_SPACE, partner]);
      if (rows[0]?.locked) continue;
      const holder = await client.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.classid = hashtext($1)::oid AND l.objid = hashtext($2)::oid AND l.granted LIMIT 1`,
        [LOCK_SPACE, partner],
      );
      const name = holder.rows[0]?.name.replace(/^pos-sandbox /, '') ?? 'unknown';
      throw new StoreError(
        `another pos-sandbox instance (${name}) serves partner '${partner}' on ${where}: one instance per partner's state, since each keeps that state in memory; stop it first (docs/hosting.md)`,
      );
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { release: () => client.end() };
}
