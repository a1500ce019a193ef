/**
 * The control API, fault, findings and journal suites of server/test/ with every test sandbox on PostgreSQL.
 * Several suites to a file, as pos-api.test.ts says why.
 */
import { onPostgres } from './postgres-store.js';

await onPostgres(async () => {
  await import('../faults.suite.js');
  await import('../fault-control.suite.js');
  await import('../control.suite.js');
  await import('../findings.suite.js');
  await import('../journal.suite.js');
});
