/** `pos-sandbox serve --partners FILE`: a hosted sandbox, each partner with its own state (docs/hosting.md), and a banner that prints no key or token. */
import { dirname, join } from 'node:path';
import { InstanceMetrics } from '../hosted/instance-metrics.js';
import pc from 'picocolors';
import type { ServeConfig, ServeFlags } from '../config.js';
import { loadFaultFile } from '../faults/fault-rules.js';
import { Redactor } from '../journal/redactor.js';
import { createLogger } from '../logger.js';
import { createHostedSandbox } from '../hosted/hosted-sandbox.js';
import { defaultInstanceId } from '../sandbox.js';
import { loadPartnersFile } from '../hosted/partners-file.js';
import { createSandboxServer } from '../http/http-parser-errors.js';
import { fileStorage, memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { setAsideReport, setAsideState } from '../store/set-aside-state.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { hostedBanner } from './banner.js';
import { stopGracefully, listenOn } from './listen.js';

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
  for (const warning of setup.warnings) logger.warn(`partners file: ${warning}`);
  const instanceId = defaultInstanceId();
  // On a database each partner is led by one instance at a time (docs/hosting.md).
  const metrics = new InstanceMetrics({ process: true });
  const cluster = config.databaseUrl === undefined ? undefined : await (await import('../hosted/cluster.js')).startCluster({ url: config.databaseUrl, instanceId, logger, metrics, idleMs: config.idleMs });
  const dataFile = config.dataFile;
  if (config.freshState && dataFile !== undefined) {
    for (const partner of setup.partners) {
      const file = partnerDataFile(dataFile, partner.identity.name);
      process.stdout.write(setAsideReport(file, setAsideState(file, new Date())));
    }
  }
  const storageFor = (partner: string): DocumentStorage => (dataFile === undefined ? memoryStorage() : fileStorage(partnerDataFile(dataFile, partner)));
  const hosted = await createHostedSandbox({
    setup,
    storageFor,
    logger,
    logRedactor: redactor,
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
    metrics,
    place: cluster === undefined ? undefined : async (partner, make) => {
      const slot = await cluster.add(partner, make);
      return { listener: slot.listener, sandbox: () => slot.sandbox, followingHealth: () => slot.followingHealth() };
    },
  });
  const server = createSandboxServer(
    cluster ? (await import('../hosted/cluster.js')).answerReadinessHere(hosted.listener, { readiness: hosted.readiness, database: cluster.database }) : hosted.listener,
    { originFormOnly: true },
  );
  const { baseUrl, ownUrl: own } = await listenOn(server, config);
  for (const placed of hosted.partners.values()) {
    const sandbox = placed.sandbox();
    if (sandbox) sandbox.checklist.sandboxUrl = own;
  }
  await cluster?.publish(config.advertiseUrl ?? own);
  process.stdout.write(
    hostedBanner({
      version: VERSION,
      baseUrl,
      state: cluster?.database.where ?? (dataFile === undefined ? 'memory' : join(dirname(dataFile), 'partners', '<partner>.json')),
      partnersFile: config.partnersFile!,
      instanceId: hosted.instanceId,
      operator: setup.operatorToken !== undefined,
      reportSigning: setup.reportKeys === undefined ? undefined : { deployment: setup.reportKeys.signer.deployment ?? '', kid: setup.reportKeys.signer.kid, keys: setup.reportKeys.keys.length },
      partners: setup.partners.map((partner) => ({ name: partner.identity.name, locations: partner.fixtures.locations.length, posOrderUrl: partner.posOrderUrl ?? config.posOrderUrl })),
    }) + '\n',
  );
  stopGracefully({ server, readiness: hosted.readiness, close: () => hosted.close(), database: cluster ? { close: () => cluster.stop() } : undefined });
}
