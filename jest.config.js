// ts-jest's ESM preset: the project is ESM because lowdb 7 is ESM-only.
// Type checking is tsc's job (npm run typecheck); isolatedModules in tsconfig keeps ts-jest to transpiling.
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  // One worker per core (2 on the 2-core development machine; jest's default would be 1): the slow files mostly
  // wait on child processes and timers, so another file runs in that time. A third worker took a warm run from
  // 88 s to 74 s, but on a fresh clone, where ts-jest first compiles every file, it timed out 28 tests (CI).
  maxWorkers: '100%',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/.sandbox/', '/.scratch/'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/server/test/use-built-validators.ts'],
  // Every answer a test receives is judged against openapi.json: server/test/contract/.
  setupFilesAfterEnv: ['<rootDir>/server/test/contract/check-responses.setup.ts'],
  // The document it judges by is built once per run, not once per test file.
  globalSetup: '<rootDir>/server/test/contract/openapi-document.global-setup.ts',
  globalTeardown: '<rootDir>/server/test/contract/openapi-document.global-teardown.ts',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};
