/**
 * The POS API suites of server/test/ with every test sandbox on PostgreSQL: refunds, menus, orders and order status.
 * Several suites to a file: each file loads the app's modules once, which cost about a CPU-second a file when each
 * suite had its own.
 */
import { onPostgres } from './postgres-store.js';

await onPostgres(async () => {
  await import('../refund.test.js');
  await import('../refunds.test.js');
  await import('../menu.test.js');
  await import('../orders.test.js');
  await import('../order-status.test.js');
});
