/**
 * SIGTERM and SIGINT: readiness turns to 503 at once (a load balancer stops sending), the server takes no new
 * connection, and the requests in flight get up to `graceMs` to finish; then the connections left are closed (a
 * request held by a hang fault would keep the server open for ever). A PENDING refund stays PENDING in the store,
 * handed back: the next start (or another instance of the same state) decides it. The database closes last.
 */
import type { Server } from 'node:http';
import type { Readiness } from '../control/sandbox-routes.js';

/** How long requests in flight get to finish after SIGTERM. */
export const STOP_GRACE_MS = 5_000;

export function stopGracefully(options: { server: Server; readiness: Readiness; close: () => void; database?: { close(): Promise<void> }; graceMs?: number }): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    options.readiness.draining = true;
    options.close();
    const forced = setTimeout(() => options.server.closeAllConnections(), options.graceMs ?? STOP_GRACE_MS);
    forced.unref();
    options.server.close(() => {
      clearTimeout(forced);
      void (options.database?.close() ?? Promise.resolve()).finally(() => process.exit(0));
    });
    // Idle keep-alive connections would otherwise hold the server open until they time out.
    options.server.closeIdleConnections();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
}
