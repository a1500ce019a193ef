// npm run test:system: the whole-system scenarios, *.system.test.ts (docs/development.md): real processes, several
// instances on PostgreSQL, a SIGKILL, the browser, spawned CLIs. Everything else is as npm test runs it.
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['**/*.system.test.ts'],
  testPathIgnorePatterns: base.testPathIgnorePatterns.filter((pattern) => !pattern.includes('system')),
  // A scenario spawns several processes, each slower on a loaded machine: 30 s each, not jest's 5, and a hang still fails.
  testTimeout: 30_000,
};
