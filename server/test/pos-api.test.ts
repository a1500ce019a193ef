/**
 * The POS API suites (server/test/*.suite.ts) on the memory store: refunds, menus, orders, order status,
 * authentication, findings on menus, the payloads of menu-template/, and bodies a hostile client sends. Several
 * suites to a file: each test file loads the app's modules afresh (Express, supertest, jsonwebtoken, pino and ~130 of
 * ours), about a third of a CPU-second, which each suite paid when it was a file of its own. Run one with
 * `npm test -- server/test/pos-api -t NAME`. on-postgres/pos-api.system.test.ts (npm run test:system) runs the first five again on PostgreSQL.
 */
// One after another: jest's ES module loader fails imports that run side by side and share a module.
await import('./refund.suite.js');
await import('./refunds.suite.js');
await import('./menu.suite.js');
await import('./orders.suite.js');
await import('./given-orders.suite.js');
await import('./order-status.suite.js');
await import('./auth.suite.js');
await import('./menu-findings.suite.js');
await import('./menu-template.suite.js');
await import('./hostile-bodies.suite.js');
