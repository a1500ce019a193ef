/**
 * A real Chromium for the dashboard's tests (playwright-core drives the system's browser; it downloads none).
 * Where none is installed the browser suites are skipped, but not where POS_SANDBOX_REQUIRE_BROWSER=1 (.ci/run sets
 * it): there a missing Chromium fails them.
 *
 * The tests prefer Chromium's headless shell (Debian's `chromium-headless-shell`, the browser's old headless mode,
 * which Playwright itself runs for headless tests): the same Blink and V8 as the full browser, at a fraction of its
 * CPU. The full browser starts, with every window, a renderer of its own for its tab strip, and its renderers cost
 * more to start: opening and closing 8 pages took 10.3 CPU-seconds with it and 1.1 with the shell (2026-11-26,
 * this 2-core machine), and the dashboard's test file 14.7 against 3.8. The bench and the screenshots take the full
 * browser, which is the one a presenter opens.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const FULL = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export type BrowserKind = 'headless-shell' | 'full';

function candidates(kind: BrowserKind): string[] {
  const named = process.env.CHROMIUM_PATH;
  return [...(named ? [named] : []), ...(kind === 'headless-shell' ? [HEADLESS_SHELL] : []), ...FULL];
}

/** The Chromium to drive, or undefined when this machine has none: CHROMIUM_PATH first, then the kind asked for, then any full browser. */
export function findChromium(kind: BrowserKind = 'headless-shell'): string | undefined {
  return candidates(kind).find((path) => existsSync(path));
}

export const BROWSER_REQUIRED = process.env.POS_SANDBOX_REQUIRE_BROWSER === '1';

/** Whether the browser suites run here: a Chromium is installed, or one is required (and its absence then fails). */
export const RUN_BROWSER_TESTS = findChromium() !== undefined || BROWSER_REQUIRED;

export async function launchBrowser(kind: BrowserKind = 'headless-shell'): Promise<Browser> {
  const executablePath = findChromium(kind);
  if (executablePath === undefined) {
    throw new Error(
      `no Chromium found (looked at ${candidates(kind).join(', ')}); install one (apt-get install -y ${kind === 'full' ? 'chromium' : 'chromium-headless-shell'}) or set CHROMIUM_PATH`,
    );
  }
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start.
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
