/**
 * Runs a store-agnostic suite a second time with every test sandbox on PostgreSQL: the run's real server
 * (../postgres.ts), a database of the file's own, and a partner of its own for each sandbox, so no test sees
 * another's rows.
 * Each file of this folder is one suite of server/test/ run so: the same API tests pass on both stores.
 */
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { openPostgres, type OpenedPostgres } from '../../store/open-postgres.js';
import { postgresStorage } from '../../store/postgres-storage.js';
import { useStorageForTestSandboxes } from '../helpers.js';
import { RUN_POSTGRES_TESTS, testDatabase } from '../postgres.js';

const suite = RUN_POSTGRES_TESTS ? describe : describe.skip;

export async function onPostgres(load: () => Promise<unknown>): Promise<void> {
  if (!RUN_POSTGRES_TESTS) {
    // Said as skipped, as the other PostgreSQL suites are; where they are required (.ci/run) this never runs.
    suite('on PostgreSQL', () => it('needs the PostgreSQL server binaries (apt-get install -y postgresql)', () => undefined));
    return;
  }
  let db: OpenedPostgres | undefined;
  beforeAll(async () => {
    db = await openPostgres(await testDatabase('suite'));
    let sandboxes = 0;
    useStorageForTestSandboxes(() => postgresStorage(db!.pool, `partner-${++sandboxes}`, db!.where));
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });
  await load();
}
