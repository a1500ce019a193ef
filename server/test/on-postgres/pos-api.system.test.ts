/**
 * The POS API suites of server/test/ with every test sandbox on PostgreSQL: refunds, menus, orders and order status.
 * Several suites to a file: each file loads the app's modules once, which cost about a CPU-second a file when each
 * suite had its own.
 */
import { onPostgres } from './postgres-store.js';

await onPostgres(async () => {
  await import('../refund.suite.js');
  await import('../refunds.suite.js');
  await import('../menu.suite.js');
  await import('../orders.suite.js');
  await import('../order-status.suite.js');
});
