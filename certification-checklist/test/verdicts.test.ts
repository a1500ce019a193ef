/**
 * The checklist's verdicts over real HTTP (certification-checklist/test/*.suite.ts): every item against its reference
 * POS --bug, the control client that reads the sandbox's lists, and the migration report against the v1 switches. The runs against another POS are a file of their
 * own (other-pos.test.ts), so the two halves run side by side: most of their time is waiting on the POS.
 * Several suites to a file: each test file loads the sandbox, the reference POS and the checklist afresh, about a
 * third of a CPU-second, which each suite paid when it was a file of its own. Run one with
 * `npm test -- certification-checklist/test/verdicts -t NAME`.
 */
// One after another: jest's ES module loader fails imports that run side by side and share a module.
await import('./auth-items.suite.js');
await import('./order-menu-refund-items.suite.js');
await import('./sandbox-control.suite.js');
await import('./migration-report.suite.js');
