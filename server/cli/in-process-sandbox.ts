/** A sandbox in this process, in memory, on a loopback port, for `demo` and `certify`; closing it closes every server it opened. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Express } from 'express';
import { partnerOverrideFromEnv, resolvePartner, type PartnerIdentity, type ServeConfig } from '../config.js';
import { loadFixtures, type Fixtures } from '../fixtures/load-fixtures.js';
import { silentLogger } from '../logger.js';
import { createSandboxServer } from '../http/http-parser-errors.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { memoryStorage } from '../store/segment-storage.js';
import { PACKAGE_ROOT } from '../version.js';

export interface InProcessSandbox {
  sandbox: Sandbox;
  url: string;
  fixtures: Fixtures;
  partner: PartnerIdentity;
  /** Serves another app (the reference POS) on a free loopback port, closed with the sandbox; answers its URL. */
  listen(app: Express): Promise<string>;
  close(): Promise<void>;
}

export interface InProcessOptions {
  port: number;
  refundDelayMs: number;
  dispatch: ServeConfig['dispatch'];
  reportDir: string;
  /** Where the sandbox delivers its orders when the checklist names none. */
  posOrderUrl?: string;
}

/** Starts it; a port in use rejects with the listen error (EADDRINUSE), for the command to say. */
export async function startInProcessSandbox({ port, refundDelayMs, dispatch, reportDir, posOrderUrl }: InProcessOptions): Promise<InProcessSandbox> {
  const fixtures = loadFixtures(join(PACKAGE_ROOT, 'fixtures'));
  const partner = resolvePartner(fixtures.partner, partnerOverrideFromEnv(process.env));
  const sandbox = await createSandbox({ fixtures, partner, storage: memoryStorage(), logger: silentLogger(), refundDelayMs, dispatch, reportDir, ...(posOrderUrl ? { posOrderUrl } : {}) });
  const servers: Server[] = [];
  const listen = async (app: Express, on = 0) => {
    const server = createSandboxServer(app);
    servers.push(server);
    server.listen(on, '127.0.0.1');
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  let url;
  try {
    url = await listen(sandbox.app, port);
  } catch (error) {
    sandbox.close();
    throw error;
  }
  // The dashboard's Checklist page runs the checklist against this sandbox again.
  sandbox.checklist.sandboxUrl = url;
  return {
    sandbox,
    url,
    fixtures,
    partner,
    listen: (app) => listen(app),
    close: async () => {
      sandbox.close();
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
