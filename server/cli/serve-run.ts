/** What `pos-sandbox serve` runs: fixtures, the app, the banner; the only place with env and listen, imported only when serve runs. */
import pc from 'picocolors';
import { dirname, join } from 'node:path';
import { createSandbox, defaultInstanceId, type Sandbox } from '../sandbox.js';
import { fileStorage, memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { setAsideReport, setAsideState } from '../store/set-aside-state.js';
import { resolvePartner, resolveServeConfig, type ServeFlags } from '../config.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { loadFaultFile } from '../faults/fault-rules.js';
import { mintPosToken } from '../tokens/mint-pos-token.js';
import { createLogger, type Logger } from '../logger.js';
import { Redactor } from '../journal/redactor.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { STANDALONE_COMMANDS, startupBanner } from './banner.js';
import { createSandboxServer } from '../http/http-parser-errors.js';
import { listenOn, stopGracefully } from './listen.js';
import { LAPTOP_KEY_FILE, laptopReportKeysOnStart, processReportKeys } from '../checklist/report-keys.js';

const SAMPLE_TTL_S = 3600;

export async function serve(flags: ServeFlags): Promise<void> {
  const config = resolveServeConfig(flags, process.env, { fixturesDir: join(PACKAGE_ROOT, 'fixtures') });
  if (config.partnersFile !== undefined) return (await import('./serve-hosted.js')).serveHosted(config, flags);
  const fixtures = loadFixtures(config.fixturesDir);
  const partner = resolvePartner(fixtures.partner, config.partnerOverride);
  const faults = config.faultsFile === undefined ? undefined : loadFaultFile(config.faultsFile, join(PACKAGE_ROOT, 'fixtures', 'faults'));
  // One redactor for the log and the journal: both hide the key and the signatures of the tokens seen.
  const redactor = new Redactor(partner.nonProdKey);
  // Pretty on a terminal (or --log-format pretty), JSON lines otherwise.
  const pretty = flags.logFormat === undefined ? process.stdout.isTTY === true : flags.logFormat === 'pretty';
  const logger = createLogger({ level: config.logLevel, pretty, colour: pretty && pc.isColorSupported, redactor });
  if (config.freshState && config.dataFile !== undefined) {
    process.stdout.write(setAsideReport(config.dataFile, setAsideState(config.dataFile, new Date())));
  }
  const instanceId = defaultInstanceId();
  // Made at the first start in the data folder and kept: every report this laptop writes is signed by the same key.
  const laptopKey = config.dataFile === undefined ? { keys: processReportKeys(), save: () => undefined } : laptopReportKeysOnStart(join(dirname(config.dataFile), LAPTOP_KEY_FILE));
  const reportKeys = laptopKey.keys;
  const sandboxOn = async (storage: DocumentStorage, forwardKey?: string): Promise<Sandbox> => {
    const made = await createSandbox({
      fixtures,
      partner,
      storage,
      logger,
      redactor,
      strict: config.strict,
      refundDelayMs: config.refundDelayMs,
      dispatch: config.dispatch,
      journalLimit: config.journalLimit,
      refundLimit: config.refundLimit,
      adminToken: config.adminToken,
      listenHost: config.host,
      posOrderUrl: config.posOrderUrl,
      faults,
      reportDir: config.reportDir,
      instanceId,
      forwardKey,
      readiness,
      reportKeys,
    });
    logOutcomes(made, logger);
    return made;
  };
  const readiness = { draining: false };
  // On a database each partner is led by one instance at a time; the driver and migrations are loaded only then.
  const cluster = config.databaseUrl === undefined ? undefined : await (await import('../hosted/cluster.js')).startCluster({ url: config.databaseUrl, instanceId, logger });
  const slot = await cluster?.add(partner.name, sandboxOn);
  const sandbox = slot ? slot.sandbox : await sandboxOn(config.dataFile === undefined ? memoryStorage() : fileStorage(config.dataFile));
  laptopKey.save();
  const server = createSandboxServer(
    cluster && slot ? (await import('../hosted/cluster.js')).answerReadinessHere(slot.listener, { readiness, database: cluster.database }) : sandbox!.app,
    { originFormOnly: cluster !== undefined, prototypesOf: sandbox?.app },
  );
  const { baseUrl, ownUrl: own } = await listenOn(server, config);
  // Checklist runs call this sandbox back here, and the other instances send its partner's requests here.
  if (sandbox) sandbox.checklist.sandboxUrl = own;
  await cluster?.publish(config.advertiseUrl ?? own);
  // From the stored state, so after a restart the curl is still a clean first refund; a follower has none, so the fixtures.
  const orders = sandbox?.store.orders.all() ?? [];
  const refundable = (o: (typeof orders)[number]) =>
    o.Status === 'ACCEPTED' && o.ExternalId !== undefined && !sandbox?.refunds.latestRefund(o.ExternalId, o.LocationId);
  const sampleOrder = orders.find(refundable) ?? orders.find((o) => o.ExternalId) ?? fixtures.orders[0];
  const locationId = sampleOrder?.LocationId ?? fixtures.locations[0]?.id ?? 'loc';
  const { token } = mintPosToken({
    posName: partner.name,
    key: partner.nonProdKey,
    locationId,
    ttlSeconds: SAMPLE_TTL_S,
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  process.stdout.write(
    startupBanner({
      version: VERSION,
      baseUrl,
      partner,
      locations: fixtures.locations,
      posOrderUrl: config.posOrderUrl,
      strict: config.strict,
      fixturesDir: config.fixturesDir,
      stateNotes: sandbox?.store.notes,
      state: cluster ? `${cluster.database.where} (${sandbox ? 'this instance leads the partner' : `another instance leads the partner; this one sends its requests there`})` : (sandbox?.store.storage.where ?? 'memory'),
      faults: sandbox ? { count: sandbox.faults.size, from: sandbox.faults.startedWith === 'file' ? config.faultsFile : sandbox.faults.startedWith } : undefined,
      sample: { token, ttlSeconds: SAMPLE_TTL_S, locationId, externalId: sampleOrder?.ExternalId ?? 'POS-ORDER-1' },
      keyFrom: config.partnerOverride.nonProdKey === undefined ? 'fixtures' : 'environment',
      apiKeyFrom: config.partnerOverride.apiKey !== undefined ? 'environment' : config.partnerOverride.name !== undefined && config.partnerOverride.name !== fixtures.partner.name ? 'none' : 'fixtures',
      showKey: flags.showKey === true,
      commands: process.env.POS_SANDBOX_STANDALONE === '1' ? STANDALONE_COMMANDS : undefined,
    }) + '\n',
  );
  stopGracefully({ server, readiness, close: () => sandbox?.close(), database: cluster ? { close: () => cluster.stop() } : undefined });
}

/** The log lines of what the sandbox decides on its own: refunds settled, orders moving. */
function logOutcomes(sandbox: Sandbox, logger: Logger): void {
  sandbox.refunds.on('settled', (refund) => {
    const outcome = refund.status === 'FAILED' ? `FAILED ${refund.reason}: ${refund.detail}` : `${refund.status}: ${refund.detail}`;
    logger.info({ refundId: refund.id, externalId: refund.externalId, location: refund.locationId }, `refund ${outcome}`);
  });
  const orderLines = new OrderLogLines();
  sandbox.orders.on('changed', (order) => {
    const last = order.History?.at(-1);
    if (last?.status !== order.Status || !orderLines.isNewState(order.OrderId, order.History?.length ?? 0)) return;
    const detail = order.Reason ? `: ${order.Reason}` : order.ExternalId ? ` (ExternalId ${order.ExternalId})` : '';
    logger.info({ orderId: order.OrderId, location: order.LocationId }, `order ${order.Status}${detail}`);
  });
  sandbox.orders.on('deliveryError', (orderId, error) => logger.error({ orderId, err: error }, 'order delivery stopped by an internal error'));
}

/** One log line per state an order enters: a retried delivery changes the order while its state stays DISPATCHED. */
export class OrderLogLines {
  /** OrderId → the history length last logged; the oldest forgotten past `limit` (orders are bounded anyway). */
  private readonly logged = new Map<string, number>();

  constructor(private readonly limit = 10_000) {}

  /** True once per state entered: when the order's history is longer than when it was last logged. */
  isNewState(orderId: string, historyLength: number): boolean {
    const last = this.logged.get(orderId) ?? 0;
    if (historyLength <= last) return false;
    this.logged.delete(orderId);
    this.logged.set(orderId, historyLength);
    if (this.logged.size > this.limit) this.logged.delete(this.logged.keys().next().value!);
    return true;
  }
}
