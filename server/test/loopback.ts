/**
 * Servers on loopback ports for tests, and their closing: nothing else loaded, so a test of a client alone does not
 * pay for the app (live.ts, which re-exports these, loads it).
 */
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';

const servers: Server[] = [];

/** Closes every server a test started, keep-alive connections included; call it in afterEach. */
export async function closeServers(): Promise<void> {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
}

/** A loopback port nothing listens on: one just freed (fetch refuses some fixed ones, such as 1 and 9, as bad ports). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Listens on a free loopback port; closeServers closes it. */
export async function listen(handler: RequestListener | ((req: IncomingMessage, res: ServerResponse) => void)): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
