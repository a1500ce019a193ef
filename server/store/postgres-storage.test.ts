/**
 * The PostgreSQL store against the run's real server (a database of this file's own): the migrations, the storage's own contract
 * (order of writes, rewrites, removal, one partner's rows only), and the whole SandboxStore on it: what a commit
 * stores, a start reads back and checks, including a damaged row.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { isPostgresUrl, MIGRATIONS_DIR, MIGRATIONS_TABLE, openPostgres, redactDatabaseUrl, type OpenedPostgres } from './open-postgres.js';
import { postgresStorage } from './postgres-storage.js';
import { SandboxStore, StoreError } from './sandbox-store.js';
import { refundRecord, STORE_CLOCK, storeFixtures } from '../test/stored-state.js';
import { RUN_POSTGRES_TESTS, testDatabase } from '../test/postgres.js';

/** Every migration of db-migrations/, in the order they run. */
const MIGRATIONS = readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.sql')).map((name) => name.replace(/\.sql$/, '')).sort();

const suite = RUN_POSTGRES_TESTS ? describe : describe.skip;

let db: OpenedPostgres;
let url: string;
let scopes = 0;
/** A storage of its own partner in the shared database: tests never see each other's rows. */
const storage = () => postgresStorage(db.pool, `partner-${++scopes}`, db.where);

beforeAll(async () => {
  if (!RUN_POSTGRES_TESTS) return;
  url = await testDatabase('store');
  db = await openPostgres(url);
}, 30_000);
afterAll(async () => {
  await db?.close();
});

describe('pure helpers', () => {
  it('shows a database URL without its password', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db.example:5432/sandbox?sslmode=require')).toBe('postgres://app:***@db.example:5432/sandbox?sslmode=require');
    expect(redactDatabaseUrl('postgres://app@db/sandbox')).toBe('postgres://app@db/sandbox');
    expect(redactDatabaseUrl('not a url')).toBe('(a database URL that cannot be parsed)');
  });

  it('knows a PostgreSQL URL by its scheme', () => {
    expect(['postgres://h/d', 'postgresql://h/d', 'POSTGRES://h/d'].map(isPostgresUrl)).toEqual([true, true, true]);
    expect(['mysql://h/d', '.sandbox/db.json', 'postgres:h'].map(isPostgresUrl)).toEqual([false, false, false]);
  });
});

suite('the migrations', () => {
  it('made the tables and recorded the migration; a second start applies nothing', async () => {
    const { rows } = await db.pool.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`);
    expect(rows.map((row) => row.name)).toEqual(MIGRATIONS);
    expect(db.applied).toEqual(MIGRATIONS);
    const again = await openPostgres(url);
    expect(again.applied).toEqual([]);
    await again.close();
  });

  it('lets instances starting at once on a new database wait for each other: one applies, none fails', async () => {
    const fresh = await testDatabase('store_race');
    const opened = await Promise.all([openPostgres(fresh), openPostgres(fresh), openPostgres(fresh)]);
    expect(opened.map((one) => one.applied.length).sort()).toEqual([0, 0, MIGRATIONS.length]);
    await Promise.all(opened.map((one) => one.close()));
  });

  it('refuses a database it cannot reach with a StoreError naming it without the password', async () => {
    const unreachable = url.replace('sandbox@', 'sandbox:hunter2@').replace(/\/[^/]+$/, '/no_such_database');
    const error = await openPostgres(unreachable).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/^cannot connect to the PostgreSQL database postgres:\/\/sandbox:\*\*\*@127\.0\.0\.1:\d+\/no_such_database: database "no_such_database" does not exist$/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});

suite('postgresStorage', () => {
  it('keeps the writes of one document in the order they were asked for, whatever connection runs them', async () => {
    const one = storage();
    const adapter = one.open<{ n: number; pad?: string }>('orders-000001');
    // A large first version takes longer to send than the small ones after it: unordered, it would land last.
    await Promise.all([adapter.write({ n: 0, pad: 'x'.repeat(4_000_000) }), ...Array.from({ length: 20 }, (_, n) => adapter.write({ n: n + 1 }))]);
    expect(await adapter.read()).toEqual({ n: 20 });
  });

  it('appends a log in order, rewrites it whole, and removes documents and logs', async () => {
    const one = storage();
    await Promise.all(['a\n', 'b\n', 'c\n'].map((line) => one.append('refunds-log-000001', line)));
    await one.rewrite('refunds-log-000002', 'x\n');
    await one.append('refunds-log-000002', 'y\n');
    await one.open('orders-000001').write([]);
    const read = async () => {
      const { rows } = await db.pool.query("SELECT name, string_agg(body, '' ORDER BY seq) AS body FROM sandbox_log_appends WHERE partner = $1 GROUP BY name ORDER BY name", [`partner-${scopes}`]);
      return rows;
    };
    expect(await read()).toEqual([
      { name: 'refunds-log-000001', body: 'a\nb\nc\n' },
      { name: 'refunds-log-000002', body: 'x\ny\n' },
    ]);
    // What a rewrite reads back to copy lines from: the appends in order, and '' for a log there is none of.
    expect(await one.readLog('refunds-log-000001')).toBe('a\nb\nc\n');
    expect(await one.readLog('refunds-log-000009')).toBe('');
    await one.rewrite('refunds-log-000001', 'b\n');
    await one.remove('refunds-log-000002');
    await one.remove('orders-000001');
    expect(await read()).toEqual([{ name: 'refunds-log-000001', body: 'b\n' }]);
    expect(await one.open('orders-000001').read()).toBeNull();
  });

  it("reads and changes only its own partner's rows", async () => {
    const mine = storage();
    const theirs = storage();
    await mine.open('state').write({ mine: true });
    await theirs.open('state').write({ theirs: true });
    await theirs.append('refunds-log-000001', `${JSON.stringify(refundRecord(1))}\n`);
    await mine.remove('refunds-log-000001');
    const all = await mine.readAll();
    expect(all.state).toEqual({ ok: true, value: { mine: true } });
    expect(all.entries).toEqual([]);
    expect((await theirs.readAll()).entries.map((entry) => entry.file)).toEqual(['refunds-log-000001.jsonl']);
  });
});

suite('SandboxStore on PostgreSQL', () => {
  it('seeds an empty partner from the fixtures, and a start reads back menus, orders, refunds and fault rules', async () => {
    const one = storage();
    const store = await SandboxStore.open(one, storeFixtures, STORE_CLOCK);
    expect(store.orders.all()).toEqual(storeFixtures.orders);
    store.refunds.put(refundRecord(1, { status: 'PENDING' }));
    store.refunds.put(refundRecord(2));
    await store.commit();
    store.refunds.put(refundRecord(1));
    const menu = structuredClone(store.menu('loc-std-001')!);
    store.putMenu('loc-std-001', { ...menu, Items: menu.Items?.slice(0, 1) });
    await store.commit();
    const reopened = await SandboxStore.open(one, storeFixtures, STORE_CLOCK);
    expect(reopened.refunds.all()).toEqual([refundRecord(1), refundRecord(2)]);
    expect(reopened.menu('loc-std-001')).toEqual(store.menu('loc-std-001'));
    expect(reopened.orders.all()).toEqual(store.orders.all());
  });

  it('refuses a start on a damaged row, naming it, and changes nothing', async () => {
    const one = storage();
    const store = await SandboxStore.open(one, storeFixtures, STORE_CLOCK);
    store.refunds.put(refundRecord(1));
    await store.commit();
    const partner = `partner-${scopes}`;
    await db.pool.query("UPDATE sandbox_documents SET body = '{\"schemaVersion\":1' WHERE partner = $1 AND name = 'state'", [partner]);
    const error = await SandboxStore.open(one, storeFixtures, STORE_CLOCK).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message.split('\n').slice(0, 2)).toEqual([
      'the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
      expect.stringMatching(new RegExp(`^  - ${db.where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#state: .*JSON`)),
    ]);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM sandbox_log_appends WHERE partner = $1', [partner]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('answers a commit only once its rows are in the database: another connection reads them then', async () => {
    const one = storage();
    const store = await SandboxStore.open(one, storeFixtures, STORE_CLOCK);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      for (let n = 1; n <= 20; n++) {
        store.refunds.put(refundRecord(n));
        await store.commit();
        const { rows } = await other.query<{ body: string }>("SELECT string_agg(body, '' ORDER BY seq) AS body FROM sandbox_log_appends WHERE partner = $1", [`partner-${scopes}`]);
        expect(rows[0]!.body.trimEnd().split('\n')).toHaveLength(n);
      }
    } finally {
      await other.end();
    }
  });
});
