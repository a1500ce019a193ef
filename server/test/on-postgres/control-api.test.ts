/**
 * The control API, fault, findings and journal suites of server/test/ with every test sandbox on PostgreSQL.
 * Several suites to a file, as pos-api.test.ts says why.
 */
import { onPostgres } from './postgres-store.js';

await onPostgres(async () => {
  await import('../faults.test.js');
  await import('../fault-control.test.js');
  await import('../control.test.js');
  await import('../findings.test.js');
  await import('../journal.test.js');
});
