/** serve's listen, for one partner and for many: the server on its port, and the addresses the banner and the other instances use. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { limitHeapGrowth } from './heap-growth.js';

export interface Listening {
  /** As the banner shows it: the --host address (bracketed when IPv6) and the port. */
  baseUrl: string;
  /** Where this process reaches itself (checklist runs call it back), and the other instances reach it by default. */
  ownUrl: string;
}

export async function listenOn(server: Server, config: { port: number; host: string }): Promise<Listening> {
  server.listen(config.port, config.host);
  await once(server, 'listening');
  // Only now: the stored state is read at start with V8's own growth, which a 100,000-refund start needs (10% quicker).
  limitHeapGrowth();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { baseUrl: `http://${host}:${port}`, ownUrl: `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}` };
}
