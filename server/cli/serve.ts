/** `pos-sandbox serve`: loads the fixtures, starts the app, prints the banner. The only place with env and listen. */
import { once } from 'node:events';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { createSandbox } from '../sandbox.js';
import { fileStorage, memoryStorage } from '../store/segment-storage.js';
import { setAsideReport, setAsideState } from '../store/set-aside-state.js';
import { DEFAULT_DATA_FILE, DEFAULT_HOST, DEFAULT_PORT, LOG_LEVELS, resolvePartner, resolveServeConfig, type ServeFlags } from '../config.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { loadFaultFile } from '../faults/load-fault-file.js';
import { mintPosToken } from '../domain/mint-pos-token.js';
import { createLogger } from '../logger.js';
import { Redactor } from '../journal/redactor.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { startupBanner } from './banner.js';
import { createSandboxServer } from '../http-parser-errors.js';
import { exitWith } from './exit.js';
import { DEFAULT_REFUND_LIMIT } from '../store/retention.js';
import { limitHeapGrowth } from './heap-growth.js';

const SAMPLE_TTL_S = 3600;

export function serveCommand(): Command {
  return new Command('serve')
    .description('start the sandbox (defaults: 127.0.0.1:4100, the fixtures in fixtures/)')
    // No defaults or env here: resolveServeConfig is the one place that decides, flags over env over defaults.
    .option('--port <port>', `port to listen on; 0 picks a free one (default: PORT or ${DEFAULT_PORT})`)
    .option('--host <address>', `address to listen on; /_sandbox also takes it as a Host, besides the loopback names (default: ${DEFAULT_HOST})`)
    .option('--fixtures <dir>', 'fixture folder (default: the fixtures/ of this package)')
    .option('--pos-order-url <url>', "the POS's order endpoint, where orders are sent (default: SANDBOX_POS_ORDER_URL)")
    .option('--strict', 'reject requests that draw findings instead of only reporting them')
    .option('--data <file>', `lowdb data file; segments go beside it (default: ${DEFAULT_DATA_FILE})`)
    .option('--memory', 'keep all state in memory (nothing written; for tests and demos)')
    .option(
      '--fresh-state',
      'start afresh from the fixtures: first move the data file and its segments folder aside, renamed with the time (nothing is deleted); see docs/state-file.md',
    )
    .option('--refund-delay-ms <ms>', 'how long a refund stays PENDING before it is decided (default: 1000)')
    .option('--journal-limit <n>', 'how many requests the journal keeps (default: 5000)')
    .option('--refund-limit <n>', `how many refunds are kept, in memory and on disk; the oldest go first (default: ${DEFAULT_REFUND_LIMIT})`)
    .option('--faults <file>', 'start with these fault rules (a JSON list; ready scripts in fixtures/faults/), in place of stored ones')
    .option('--admin-token <token>', 'let non-loopback clients, by any Host name, use /_sandbox with this bearer token (default: SANDBOX_ADMIN_TOKEN)')
    .addOption(new Option('--log-level <level>', 'log level (default: LOG_LEVEL or info)').choices(LOG_LEVELS))
    .addHelpText(
      'after',
      '\nEnvironment: PORT, SANDBOX_PARTNER (the POS name), SANDBOX_NONPROD_KEY (the partner\'s own non-prod key),\nSANDBOX_POS_ORDER_URL, SANDBOX_ADMIN_TOKEN, LOG_LEVEL. Flags beat the environment.' +
        '\n\nA stored state that fails the check at start (a broken data file or segment) stops the start with exit\ncode 2, naming the file, and nothing on disk is changed; --fresh-state starts afresh without deleting it.',
    )
    .action(async (flags: ServeFlags) => {
      await exitWith(() => serve(flags));
    });
}

async function serve(flags: ServeFlags): Promise<void> {
  const config = resolveServeConfig(flags, process.env, { fixturesDir: join(PACKAGE_ROOT, 'fixtures') });
  const fixtures = loadFixtures(config.fixturesDir);
  const partner = resolvePartner(fixtures.partner, config.partnerOverride);
  const faults = config.faultsFile === undefined ? undefined : loadFaultFile(config.faultsFile, join(PACKAGE_ROOT, 'fixtures', 'faults'));
  // One redactor for the log and the journal: both hide the key and the signatures of the tokens seen.
  const redactor = new Redactor(partner.nonProdKey);
  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true, redactor });
  if (config.freshState && config.dataFile !== undefined) {
    process.stdout.write(setAsideReport(config.dataFile, setAsideState(config.dataFile, new Date())));
  }
  const storage = config.dataFile === undefined ? memoryStorage() : fileStorage(config.dataFile);
  const sandbox = await createSandbox({
    fixtures,
    partner,
    storage,
    logger,
    redactor,
    strict: config.strict,
    refundDelayMs: config.refundDelayMs,
    journalLimit: config.journalLimit,
    refundLimit: config.refundLimit,
    adminToken: config.adminToken,
    listenHost: config.host,
    posOrderUrl: config.posOrderUrl,
    faults,
  });
  sandbox.refunds.on('settled', (refund) => {
    const outcome = refund.status === 'FAILED' ? `FAILED ${refund.reason}: ${refund.detail}` : `${refund.status}: ${refund.detail}`;
    logger.info({ refundId: refund.id, externalId: refund.externalId, location: refund.locationId }, `refund ${outcome}`);
  });
  sandbox.orders.on('changed', (order) => {
    const last = order.History?.at(-1);
    if (last?.status !== order.Status) return;
    const detail = order.Reason ? `: ${order.Reason}` : order.ExternalId ? ` (ExternalId ${order.ExternalId})` : '';
    logger.info({ orderId: order.OrderId, location: order.LocationId }, `order ${order.Status}${detail}`);
  });
  sandbox.orders.on('deliveryError', (orderId, error) => logger.error({ orderId, err: error }, 'order delivery stopped by an internal error'));
  const app = sandbox.app;

  const server = createSandboxServer(app);
  server.listen(config.port, config.host);
  await once(server, 'listening');
  // Only now: the stored state is read at start with V8's own growth, which a 100,000-refund start needs (10% quicker).
  limitHeapGrowth();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // From the stored state, not the fixtures: after a restart the curl must still be a clean first refund.
  const orders = sandbox.store.orders.all();
  const refundable = (o: (typeof orders)[number]) =>
    o.Status === 'ACCEPTED' && o.ExternalId !== undefined && !sandbox.refunds.latestRefund(o.ExternalId, o.LocationId);
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
      baseUrl: `http://${host}:${port}`,
      partner,
      locations: fixtures.locations,
      posOrderUrl: config.posOrderUrl,
      strict: config.strict,
      fixturesDir: config.fixturesDir,
      state: storage.where,
      faults: { count: sandbox.faults.size, from: sandbox.faults.startedWith === 'file' ? config.faultsFile : sandbox.faults.startedWith },
      sample: { token, ttlSeconds: SAMPLE_TTL_S, locationId, externalId: sampleOrder?.ExternalId ?? 'POS-ORDER-1' },
    }) + '\n',
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close(() => process.exit(0));
      // A request held by a hang fault would keep the server open for ever.
      server.closeAllConnections();
    });
  }
}
