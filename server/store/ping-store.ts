/** Is the store there? Asked by health (the operator's, a partner's, a follower's) and by readiness. */
import type { DocumentStorage } from './segment-storage.js';

/** How long a store may take to answer a health or readiness check before it counts as unavailable. */
export const STORE_PING_LIMIT_MS = 2000;

/** Pings the store, timed; a store that fails or takes longer than the limit is unavailable, and why. */
export async function pingStore(storage: Pick<DocumentStorage, 'kind' | 'ping'>): Promise<{ ok: true; ms: number } | { ok: false; ms: number; error: string }> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      storage.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STORE_PING_LIMIT_MS} ms`)), STORE_PING_LIMIT_MS);
      }),
    ]);
    return { ok: true, ms: ms() };
  } catch (error) {
    return { ok: false, ms: ms(), error: `the ${storage.kind} store did not answer: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
