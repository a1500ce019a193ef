/** `pos-sandbox serve`: its options and help; serve-run.ts is what it runs, imported only then. */
import { Command, Option } from 'commander';
import { DEFAULT_DATA_FILE, DEFAULT_HOST, DEFAULT_PORT, LOG_LEVELS, type ServeFlags } from '../config.js';
import { exitWith } from './cli-output.js';
import { DEFAULT_REFUND_LIMIT } from '../store/retention.js';

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
    .option('--partners <file>', 'host every partner of this file, each with its own state, tokens and reports (docs/hosting.md)')
    .option('--advertise-url <url>', 'with --store: where the other instances on the database reach this one (default: http://HOST:PORT; needed across machines)')
    .option('--store [url]', 'keep the state in PostgreSQL (postgres://user:password@host:5432/db); alone, the URL of DATABASE_URL (docs/hosting.md)')
    .option(
      '--fresh-state',
      'start afresh from the fixtures: first move the data file and its segments folder aside, renamed with the time (nothing is deleted); see docs/state-file.md',
    )
    .option('--refund-delay-ms <ms>', 'how long a refund stays PENDING before it is decided (default: 1000)')
    .option('--delivery-timeout-ms <ms>', "how long each try to deliver an order waits for the POS's whole reply (default: 10000)")
    .option('--retry-delays-ms <list>', 'the pauses before an order is tried again: before the 2nd try, then the 3rd; one value for both (default: 1000,2000)')
    .option('--journal-limit <n>', 'how many requests the journal keeps (default: 5000)')
    .option('--idle-ms <ms>', 'a hosted sandbox on a database (--partners with --store): put a partner\'s sandbox away after this long without a request, and make it again at its next; 0 makes every partner at start and keeps it (default: 600000)')
    .option('--refund-limit <n>', `how many refunds are kept, in memory and on disk; the oldest go first (default: ${DEFAULT_REFUND_LIMIT})`)
    .option('--faults <file>', 'start with these fault rules (a JSON list; ready scripts in fixtures/faults/), in place of stored ones')
    .option('--report-dir <dir>', 'where checklist runs started from the dashboard write their report folders', 'certification-reports')
    .option('--admin-token <token>', 'let non-loopback clients, by any Host name, use /_sandbox with this bearer token (default: SANDBOX_ADMIN_TOKEN)')
    .option('--show-key', 'print your own non-prod key (SANDBOX_NONPROD_KEY) whole in the banner; it is masked')
    .addOption(new Option('--log-format <format>', 'pretty: one line per request; json: one JSON line per event (default: pretty on a terminal, json when piped)').choices(['pretty', 'json']))
    .addOption(new Option('--log-level <level>', 'log level (default: LOG_LEVEL or info)').choices(LOG_LEVELS))
    .addHelpText(
      'after',
      '\nEnvironment: PORT, SANDBOX_PARTNER (the POS name), SANDBOX_NONPROD_KEY (the partner\'s own non-prod key),\nSANDBOX_POS_ORDER_URL, SANDBOX_ADMIN_TOKEN, LOG_LEVEL, DATABASE_URL (with --store alone), SANDBOX_ADVERTISE_URL. Flags beat the environment.' +
        '\n\nA stored state that fails the check at start (a broken data file or segment) stops the start with exit\ncode 2, naming the file, and nothing on disk is changed; --fresh-state starts afresh without deleting it.',
    )
    .action(async (flags: ServeFlags) => {
      await exitWith(async () => (await import('./serve-run.js')).serve(flags));
    });
}
