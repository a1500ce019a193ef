/**
 * Orders the sandbox sends to the POS (server/test/*.suite.ts): delivery, its retries and the outbound faults. Several
 * suites to a file, as pos-api.test.ts says why. Run one with `npm test -- server/test/delivery -t NAME`.
 */
// One after another: jest's ES module loader fails imports that run side by side and share a module.
await import('./dispatch.suite.js');
await import('./outbound-faults.suite.js');
