/** `pos-sandbox demo`'s options; demo-run.ts is imported only when it runs, so `demo --help` loads nothing heavy. */
import { Command } from 'commander';
import { BUGS, parseBugs } from '../../reference-pos/bugs.js';
import { CAPABILITIES } from '../../certification-checklist/checklist-types.js';
import { parseList } from '../../certification-checklist/scope.js';
import { DEFAULT_REFUND_DELAY_MS, deliveryPolicy } from '../config.js';
import { DEFAULT_REPORT_DIR } from './checklist.js';

interface DemoFlags {
  bug?: string;
  capabilities: string;
  reportDir: string;
  // Numbers: their defaults are applied here, so --help shows them as numbers, not as the strings commander would quote.
  windowMs?: string;
  refundDelayMs?: string;
  deliveryTimeoutMs?: string;
  retryDelaysMs?: string;
  keep?: boolean;
  port?: string;
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('start a sandbox and the reference POS, run the whole checklist in driver mode, write the report')
    .option('--bug <list>', `break the reference POS on purpose, to see items fail: ${Object.keys(BUGS).join(', ')}`)
    .option('--capabilities <list>', 'capabilities the reference POS declares', 'refund,hub,kiosk')
    .option('--report-dir <dir>', 'where the report folder <run-id>/ is written', DEFAULT_REPORT_DIR)
    // As checklist's: four steps each watch this long, so it is most of a demo's time (docs/cli.md).
    .option('--window-ms <ms>', 'how long to watch for retries after an injected error (default: 3000)')
    // As serve's: the refund steps wait for their refunds (four in all) to be decided, so a quick demo needs it short too.
    .option('--refund-delay-ms <ms>', `how long a refund stays PENDING before it is decided (default: ${DEFAULT_REFUND_DELAY_MS})`)
    // As serve's: the three forged-token steps each wait for the retry of the order the POS refused, 1 s by default.
    .option('--delivery-timeout-ms <ms>', "how long each try to deliver an order waits for the POS's whole reply (default: 10000)")
    .option('--retry-delays-ms <list>', 'the pauses before an order is tried again: before the 2nd try, then the 3rd; one value for both (default: 1000,2000)')
    .option('--keep', 'keep the sandbox and the reference POS up after the run, for the dashboard, until Ctrl-C')
    .option('--port <port>', 'the port of the sandbox and its dashboard (default: a free one)')
    .action(async (flags: DemoFlags) => {
      let bugs;
      let dispatch;
      const capabilities = parseList(flags.capabilities, CAPABILITIES, 'capability', 'capabilities');
      const windowMs = Number(flags.windowMs ?? 3000);
      const refundDelayMs = Number(flags.refundDelayMs ?? DEFAULT_REFUND_DELAY_MS);
      const port = Number(flags.port ?? 0);
      try {
        bugs = parseBugs(flags.bug);
        if (!capabilities.ok) throw new Error(capabilities.problem);
        if (!Number.isInteger(windowMs) || windowMs < 0) throw new Error(`--window-ms must be a whole number, got '${flags.windowMs}'`);
        if (!Number.isInteger(refundDelayMs) || refundDelayMs < 0) throw new Error(`--refund-delay-ms must be a whole number, got '${flags.refundDelayMs}'`);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number from 0 to 65535, got '${flags.port}'`);
        dispatch = deliveryPolicy(flags);
      } catch (error) {
        process.stderr.write(`pos-sandbox demo: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const { runDemo } = await import('./demo-run.js');
      const code = await runDemo({ bugs, capabilities: capabilities.ok ? capabilities.values : [], windowMs, refundDelayMs, dispatch, reportDir: flags.reportDir, keep: flags.keep === true, port });
      // With --keep the servers stay up: the process ends on Ctrl-C (SIGINT) or SIGTERM, with the run's exit code.
      if (flags.keep === true) {
        const stop = () => process.exit(code);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } else process.exit(code);
    });
}
