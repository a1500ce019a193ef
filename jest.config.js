// ts-jest's ESM preset: the project is ESM because lowdb 7 is ESM-only.
// Type checking is tsc's job (npm run typecheck); isolatedModules in tsconfig keeps ts-jest to transpiling.
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  // 1.5 workers per core (3 on the 2-core development machine; jest's default would be 1): the slow files mostly
  // wait on child processes and timers, so other files run in that time (README, Development, has the timings).
  // Process tests have 30-60 s timeouts, since a spawned CLI starts slower on busy cores.
  maxWorkers: '150%',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/.sandbox/', '/.scratch/'],
  testMatch: ['**/*.test.ts'],
  // Every answer a test receives is judged against openapi.json: server/test/contract/.
  setupFilesAfterEnv: ['<rootDir>/server/test/contract/check-responses.setup.ts'],
  // The document it judges by is built once per run, not once per test file.
  globalSetup: '<rootDir>/server/test/contract/openapi-document.global-setup.ts',
  globalTeardown: '<rootDir>/server/test/contract/openapi-document.global-teardown.ts',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};
