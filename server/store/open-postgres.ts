/** `serve --store postgres://…`: the database connected and migrated (db-migrations/, under an advisory lock several instances wait on) before anything is read; imported only when asked for. */
import { join } from 'node:path';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { PACKAGE_ROOT } from '../version.js';
import { StoreError } from './sandbox-store.js';

export const MIGRATIONS_DIR = join(PACKAGE_ROOT, 'db-migrations');
/** The table in which node-pg-migrate records the migrations run: named for the sandbox, in a database it may share. */
export const MIGRATIONS_TABLE = 'pos_sandbox_migrations';

export interface OpenedPostgres {
  pool: pg.Pool;
  /** The database for people: its URL without the password. */
  where: string;
  /** The migrations this start applied (none when the database was up to date). */
  applied: string[];
  close(): Promise<void>;
}

/** Pure: the URL as it may be shown (banner, health, errors): the password replaced by `***`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(a database URL that cannot be parsed)';
  }
}

/** Pure: whether a --store value names PostgreSQL. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

export async function openPostgres(url: string, options: { log?: (message: string) => void; poolSize?: number } = {}): Promise<OpenedPostgres> {
  const where = redactDatabaseUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops is an error event on the pool, which would end the process unheard.
  pool.on('error', (error) => options.log?.(`PostgreSQL connection lost (${error.message}); a new one is made for the next query`));
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`cannot connect to the PostgreSQL database ${where}: ${(error as Error).message}`);
  }
  const applied: string[] = [];
  try {
    const migrations = await runner({
      dbClient: client,
      dir: MIGRATIONS_DIR,
      direction: 'up',
      migrationsTable: MIGRATIONS_TABLE,
      advisoryLockMode: 'wait',
      singleTransaction: true,
      checkOrder: true,
      logger: { info: () => undefined, warn: (message) => options.log?.(message), error: (message) => options.log?.(message), debug: () => undefined },
    });
    applied.push(...migrations.map((migration) => migration.name));
  } catch (error) {
    client.release();
    await pool.end().catch(() => undefined);
    throw new StoreError(`the migrations of ${MIGRATIONS_DIR} could not be applied to ${where}: ${(error as Error).message}`);
  }
  client.release();
  return { pool, where, applied, close: () => pool.end() };
}
