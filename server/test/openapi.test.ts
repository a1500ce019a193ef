/**
 * The sandbox's OpenAPI document (server/test/*.suite.ts): its examples, the file a user imports, and the document
 * against the sandbox's real answers and the linter. Several suites to a file, as pos-api.test.ts says why. Run one
 * with `npm test -- server/test/openapi.test.ts -t NAME`.
 */
// One after another: jest's ES module loader fails imports that run side by side and share a module.
await import('./openapi-examples.suite.js');
await import('./openapi-file.suite.js');
await import('./openapi-contract.suite.js');
