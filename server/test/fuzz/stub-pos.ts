/** A stand-in POS for the fuzzers: takes every order delivered to it and answers 200 {ExternalId: FZ-<n>}. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubPos {
  /** The order endpoint, for --pos-order-url. */
  url: string;
  /** ExternalIds handed out so far, newest last. */
  externalIds: string[];
  close(): Promise<void>;
}

export async function startStubPos(prefix = 'FZ'): Promise<StubPos> {
  const externalIds: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const externalId = `${prefix}-${externalIds.length + 1}`;
      externalIds.push(externalId);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: externalId }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/order`,
    externalIds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
