/** serve's listen, for one partner and for many: the server on its port, and the addresses the banner and the other instances use. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Readiness } from '../control/sandbox-routes.js';
import { setFlagsFromString } from 'node:v8';

export interface Listening {
  /** As the banner shows it: the --host address (bracketed when IPv6) and the port. */
  baseUrl: string;
  /** Where this process reaches itself (checklist runs call it back), and the other instances reach it by default. */
  ownUrl: string;
}

export async function listenOn(server: Server, config: { port: number; host: string }): Promise<Listening> {
  server.listen(config.port, config.host);
  await once(server, 'listening');
  // Only now: the stored state is read at start with V8's own growth, which a 100,000-refund start needs to be quick.
  limitHeapGrowth();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { baseUrl: `http://${host}:${port}`, ownUrl: `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}` };
}

/** SIGTERM and SIGINT: readiness 503 at once, no new connection, `graceMs` for the requests in flight, then the rest closed; a PENDING refund stays in the store for the next start. */

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

/** How much V8 lets the heap grow between full collections: less than its own 4×, so a busy sandbox holds far less garbage (docs/performance.md); a soft setting that never makes a big state fail to fit. */

export const HEAP_GROWING_PERCENT = 80;

/** The V8 flag the sandbox sets at start, or undefined when the user already chose one (node's own flags or NODE_OPTIONS). */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) => /^--heap[-_]growing[-_]percent(=|$)/.test(flag));
  return chosen ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Sets the flag for this process; V8 reads it at each full collection, so setting it at start is enough. */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag !== undefined) setFlagsFromString(flag);
}
