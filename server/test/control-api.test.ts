/**
 * The control API suites (server/test/*.suite.ts) on the memory store: fault rules, by the API and by the header,
 * the control endpoints, findings, the journal, the guard of /_sandbox, look-ups, paging, the event stream,
 * readiness, the checklist runs and reports, and the dashboard's files. Several suites to a file, as pos-api.test.ts says why. Run one with
 * `npm test -- server/test/control-api -t NAME`. on-postgres/control-api.system.test.ts (npm run test:system) runs the first five again on PostgreSQL.
 */
// One after another: jest's ES module loader fails imports that run side by side and share a module.
await import('./faults.suite.js');
await import('./fault-control.suite.js');
await import('./control.suite.js');
await import('./findings.suite.js');
await import('./journal.suite.js');
await import('./control-guard.suite.js');
await import('./control-lookups.suite.js');
await import('./control-paging.suite.js');
await import('./events.suite.js');
await import('./readiness.suite.js');
await import('./checklist-runs.suite.js');
await import('./dashboard-routes.suite.js');
await import('./stress-runs.suite.js');
