/**
 * `pos-sandbox serve --partners FILE`: a hosted sandbox, every partner of the file served by one process, each with
 * its own state (docs/hosting.md). The options are serve's; what differs is here: the partners file, a store per
 * partner, the front, and a banner that prints no key or token.
 */
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import pc from 'picocolors';
import type { ServeConfig, ServeFlags } from '../config.js';
import { loadFaultFile } from '../faults/load-fault-file.js';
import { Redactor } from '../journal/redactor.js';
import { createLogger } from '../logger.js';
import { createHostedSandbox } from '../partners/hosted-sandbox.js';
import { defaultInstanceId } from '../sandbox.js';
import { openDatabase } from './open-database.js';
import { loadPartnersFile } from '../partners/load-partners-file.js';
import { createSandboxServer } from '../http-parser-errors.js';
import { fileStorage, memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { setAsideReport, setAsideState } from '../store/set-aside-state.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { hostedBanner } from './banner.js';
import { stopGracefully } from './graceful-stop.js';
import { limitHeapGrowth } from './heap-growth.js';

/** Where a partner's data file is, beside the --data file: `.sandbox/partners/<name>.json` and its segments. */
export function partnerDataFile(dataFile: string, partner: string): string {
  return join(dirname(dataFile), 'partners', `${partner}.json`);
}

export async function serveHosted(config: ServeConfig, flags: ServeFlags): Promise<void> {
  const setup = loadPartnersFile(config.partnersFile!, { env: process.env, defaultFixturesDir: config.fixturesDir });
  const faults = config.faultsFile === undefined ? undefined : loadFaultFile(config.faultsFile, join(PACKAGE_ROOT, 'fixtures', 'faults'));
  const pretty = flags.logFormat === undefined ? process.stdout.isTTY === true : flags.logFormat === 'pretty';
  // The log hides every partner's key.
  const redactor = new Redactor(setup.partners.map((partner) => partner.identity.nonProdKey));
  const logger = createLogger({ level: config.logLevel, pretty, colour: pretty && pc.isColorSupported, redactor });
  const instanceId = defaultInstanceId();
  const names = setup.partners.map((partner) => partner.identity.name);
  const database = config.databaseUrl === undefined ? undefined : await openDatabase(config.databaseUrl, names, instanceId, logger);
  const dataFile = config.dataFile;
  if (config.freshState && dataFile !== undefined) {
    for (const partner of setup.partners) {
      const file = partnerDataFile(dataFile, partner.identity.name);
      process.stdout.write(setAsideReport(file, setAsideState(file, new Date())));
    }
  }
  let storageFor: (partner: string) => DocumentStorage;
  if (database !== undefined) {
    const { postgresStorage } = await import('../store/postgres-storage.js');
    storageFor = (partner) => postgresStorage(database.pool, partner, database.where);
  } else if (dataFile !== undefined) {
    storageFor = (partner) => fileStorage(partnerDataFile(dataFile, partner));
  } else {
    storageFor = () => memoryStorage();
  }
  const hosted = await createHostedSandbox({
    setup,
    storageFor,
    logger,
    strict: config.strict,
    refundDelayMs: config.refundDelayMs,
    dispatch: config.dispatch,
    journalLimit: config.journalLimit,
    refundLimit: config.refundLimit,
    listenHost: config.host,
    posOrderUrl: config.posOrderUrl,
    faults,
    reportDir: config.reportDir,
    instanceId,
  });
  const server = createSandboxServer(hosted.listener);
  server.listen(config.port, config.host);
  await once(server, 'listening');
  limitHeapGrowth();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const own = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`;
  for (const sandbox of hosted.partners.values()) sandbox.checklist.sandboxUrl = own;
  process.stdout.write(
    hostedBanner({
      version: VERSION,
      baseUrl: `http://${host}:${port}`,
      state: database?.where ?? (dataFile === undefined ? 'memory' : join(dirname(dataFile), 'partners', '<partner>.json')),
      partnersFile: config.partnersFile!,
      instanceId: hosted.instanceId,
      operator: setup.operatorToken !== undefined,
      partners: setup.partners.map((partner) => ({ name: partner.identity.name, locations: partner.fixtures.locations.length, posOrderUrl: partner.posOrderUrl ?? config.posOrderUrl })),
    }) + '\n',
  );
  stopGracefully({ server, readiness: hosted.readiness, close: () => hosted.close(), database });
}
