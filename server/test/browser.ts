/**
 * A real Chromium for the dashboard's tests (playwright-core drives the system's browser; it downloads none).
 * Where none is installed the browser suites are skipped, but not where POS_SANDBOX_REQUIRE_BROWSER=1 (.ci/run sets
 * it): there a missing Chromium fails them.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium to drive, or undefined when this machine has none. */
export const CHROMIUM = CANDIDATES.find((path): path is string => path !== undefined && path !== '' && existsSync(path));

export const BROWSER_REQUIRED = process.env.POS_SANDBOX_REQUIRE_BROWSER === '1';

/** Whether the browser suites run here: a Chromium is installed, or one is required (and its absence then fails). */
export const RUN_BROWSER_TESTS = CHROMIUM !== undefined || BROWSER_REQUIRED;

export async function launchBrowser(): Promise<Browser> {
  if (CHROMIUM === undefined) {
    throw new Error(`no Chromium found (looked at ${CANDIDATES.filter(Boolean).join(', ')}); install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
