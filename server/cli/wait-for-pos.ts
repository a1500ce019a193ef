/**
 * I/O: waits for a POS's driver to answer GET /health with 2xx, as a CI job starts the POS and `certify` side by side.
 * Answers a problem, in one sentence naming the URL and the last thing seen, when it did not within `timeoutMs`.
 */
import { causeOf } from '../../certification-checklist/sandbox-control.js';

const POLL_MS = 250;

export async function waitForPos(driverUrl: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<{ ok: true } | { ok: false; problem: string }> {
  const url = new URL('health', driverUrl.endsWith('/') ? driverUrl : `${driverUrl}/`).href;
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    const left = deadline - Date.now();
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(Math.max(1, Math.min(2_000, left))) });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
      last = `answered ${response.status}`;
    } catch (error) {
      last = (error as Error).name === 'TimeoutError' ? 'no answer' : causeOf(error);
    }
    if (Date.now() + POLL_MS > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { ok: false, problem: `the POS did not answer GET ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${last}): start the POS test build first, point --driver at its driver's base URL (the one serving GET /health), or give it longer with --pos-timeout-s` };
}
