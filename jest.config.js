// The tests run as ES modules, since the project is ESM (lowdb 7 is ESM-only), compiled by esbuild
// (server/test/typescript-transform.js says why). Type checking is tsc's job (npm run typecheck).
import { availableParallelism } from 'node:os';

export default {
  extensionsToTreatAsEsm: ['.ts'],
  // jest-environment-node, handing each test file what the contract check reads (contract-environment.js says why).
  testEnvironment: '<rootDir>/server/test/contract/contract-environment.js',
  // Half again as many workers as cores: the checklist's files wait on an in-process POS, and another worker fills that
  // time (jest reads a percentage over 100% as that many workers, so the number is worked out here).
  maxWorkers: Math.max(2, Math.floor(availableParallelism() * 1.5)),
  roots: ['<rootDir>'],
  // The slowest files first, also where jest has no times of its own yet (slow-first-sequencer.js says how).
  testSequencer: '<rootDir>/server/test/slow-first-sequencer.js',
  // The whole-system scenarios (*.system.test.ts: real processes, several instances, a browser) are npm run test:system's.
  testPathIgnorePatterns: ['/node_modules/', '/.sandbox/', '/.scratch/', '\\.system\\.test\\.ts$'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/server/test/use-built-validators.ts', '<rootDir>/server/test/fixed-seed.ts'],
  // Every answer a test receives is judged against openapi.json: server/test/contract/.
  setupFilesAfterEnv: ['<rootDir>/server/test/contract/check-responses.setup.ts'],
  // The document it judges by is built once per run, not once per test file.
  globalSetup: '<rootDir>/server/test/contract/openapi-document.global-setup.ts',
  globalTeardown: '<rootDir>/server/test/contract/openapi-document.global-teardown.ts',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // TypeScript first: every import of ours names a .js that the mapper above takes off, and jest then tries each
  // extension in turn; with its default order (js, mjs, cjs, jsx, then ts) each of our imports cost four failed
  // lookups, in every test file, as each loads its modules afresh (about 4% of the CPU of the API suites).
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'tsx', 'jsx', 'json', 'node'],
  transform: { '^.+\\.ts$': '<rootDir>/server/test/typescript-transform.js' },
  // npm run test:coverage: V8's own counts, mapped to the sources, over every source file of the four folders.
  coverageProvider: 'v8',
  collectCoverageFrom: ['{server,certification-checklist,reference-pos}/**/*.ts', 'dashboard/**/*.{ts,tsx}', '!**/*.test.ts', '!**/*.suite.ts', '!**/test/**', '!**/*.d.ts'],
};
