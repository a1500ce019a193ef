// ts-jest's ESM preset: the project is ESM because lowdb 7 is ESM-only.
// Type checking is tsc's job (npm run typecheck); isolatedModules in tsconfig keeps ts-jest to transpiling.
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  // Three workers on the 2-core development machine: the slowest files wait on child processes and timers, and a
  // third file runs in that time. With the validators built once (setupFiles) a run is ~127 CPU-s, and 3 workers
  // took it from 88 s to 74 s (README, Development). Before, when each file compiled every schema, 3 workers
  // timed out plain 5 s tests on a busy machine.
  maxWorkers: '150%',
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
