/** Turns a known start-up failure into a message on stderr and exit code 2; anything else is a crash with its stack. */
import { ConfigError } from '../config.js';
import { FixtureError } from '../fixtures/load-fixtures.js';
import { StoreError } from '../store/store-error.js';

export async function exitWith(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof ConfigError || error instanceof FixtureError || error instanceof StoreError) {
      process.stderr.write(`pos-sandbox: ${error.message}\n`);
    } else if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(`pos-sandbox: cannot listen: ${(error as Error).message}; pick another --port (or PORT) or --host\n`);
    } else {
      throw error;
    }
    process.exit(2);
  }
}
