/** `npm run reference-pos`: starts the reference POS. The only place with env, argv and listen. */
import { once } from 'node:events';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { exitCode } from '../server/cli/program.js';
import { resolvePartner, partnerOverrideFromEnv } from '../server/config.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { BUGS, parseBugs } from './bugs.js';
import { resolveSandboxUrl } from '../server/cli/control-client.js';

interface Flags {
  // Numbers: defaults applied below, so --help shows them as numbers, not as quoted strings.
  port?: string;
  host: string;
  sandbox?: string;
  fixtures: string;
  bug?: string;
  statusInReply?: boolean;
  slowAckMs?: string;
  bigOrderMs?: string;
}

// The longest bug name and two spaces: a fixed width ran the longest name into its description.
const BUG_NAME_WIDTH = Math.max(...Object.keys(BUGS).map((name) => name.length)) + 2;

const program = new Command('reference-pos')
  .description('a correct POS side for the sandbox: the order endpoint (POST /order) and the driver contract of the certification checklist')
  .option('--port <port>', 'port to listen on; 0 picks a free one (default: REFERENCE_POS_PORT, else 4200)')
  .option('--host <address>', 'address to listen on', '127.0.0.1')
  .option('--sandbox <url>', "the sandbox's base URL, where status calls go (default: SANDBOX_URL, else http://127.0.0.1:4100)")
  .option('--fixtures <dir>', 'fixture folder: the partner and the menus this POS starts with', join(PACKAGE_ROOT, 'fixtures'))
  .option('--bug <list>', `break it on purpose, comma-separated: ${Object.keys(BUGS).join(', ')}`)
  .option('--status-in-reply', 'answer orders with Status in the reply instead of a POST /order/status afterwards')
  .option('--slow-ack-ms <ms>', 'with --bug slow-ack, how long an order reply is held (default: 12000)')
  .option('--big-order-ms <ms>', 'with --bug slow-big-order, how long the reply to an order of many items is held (default: 4000)')
  .addHelpText('after', `\nBugs:\n${Object.entries(BUGS).map(([name, does]) => `  ${name.padEnd(BUG_NAME_WIDTH)}${does}`).join('\n')}\n\nEnvironment: SANDBOX_PARTNER, SANDBOX_NONPROD_KEY (as for the sandbox), REFERENCE_POS_PORT, SANDBOX_URL.`)
  .action(async (flags: Flags) => {
    try {
      const bugs = parseBugs(flags.bug);
      const sandbox = resolveSandboxUrl(flags.sandbox, process.env);
      if (!sandbox.ok) throw new Error(sandbox.problem);
      const portFlag = flags.port ?? process.env.REFERENCE_POS_PORT ?? '4200';
      const port = Number(portFlag);
      const slowAckMs = Number(flags.slowAckMs ?? 12000);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a whole number from 0 to 65535, got '${portFlag}'`);
      if (!Number.isInteger(slowAckMs) || slowAckMs < 0) throw new Error(`--slow-ack-ms must be a whole number, got '${flags.slowAckMs}'`);
      const bigOrderMs = Number(flags.bigOrderMs ?? 4000);
      if (!Number.isInteger(bigOrderMs) || bigOrderMs < 0) throw new Error(`--big-order-ms must be a whole number, got '${flags.bigOrderMs}'`);
      // Imported only to run: `--help` need not load Express and the fixtures' validators.
      const [{ loadFixtures }, { createReferencePos }] = [await import('../server/fixtures/load-fixtures.js'), await import('./app.js')];
      const fixtures = loadFixtures(flags.fixtures);
      const partner = resolvePartner(fixtures.partner, partnerOverrideFromEnv(process.env));
      const app = createReferencePos({
        identity: { posName: partner.name, key: partner.nonProdKey, apiKey: partner.apiKey },
        sandboxUrl: sandbox.url,
        menus: fixtures.menus,
        locations: fixtures.locations,
        bugs,
        statusInReply: flags.statusInReply ?? false,
        slowAckMs,
        bigOrderMs,
        log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
      });
      const server = app.listen(port, flags.host);
      await once(server, 'listening');
      const address = server.address();
      const url = `http://${flags.host}:${typeof address === 'object' && address ? address.port : port}`;
      process.stdout.write(
        [
          `reference POS (${partner.name}) listening on ${url}`,
          `  order endpoint: ${url}/order   (start the sandbox with --pos-order-url ${url}/order)`,
          `  driver:         ${url}   (GET /health, POST /refund, /menu, /decide)`,
          `  sandbox:        ${sandbox.url}`,
          `  bugs:           ${bugs.size > 0 ? [...bugs].join(', ') : 'none (a correct POS)'}`,
          '',
        ].join('\n'),
      );
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
    } catch (error) {
      process.stderr.write(`reference-pos: ${(error as Error).message}\n`);
      process.exit(2);
    }
  });

// A command line commander cannot take exits 2, as pos-sandbox's do.
program.exitOverride();
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  process.exit(exitCode(error));
}
