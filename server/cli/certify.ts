/** `pos-sandbox certify`: the checklist for a CI job in one command, against a sandbox of its own in this process that holds nothing but the run; certify-run.ts runs it. */
import type { CertifyOptions } from './certify-run.js';
import { Command } from 'commander';
import { CAPABILITIES } from '../../certification-checklist/checklist-types.js';
import { DEFAULT_PORT } from '../config.js';
import { checkUrls, runFlagValues, UsageError } from './run-flags.js';

interface CertifyFlags {
  driver: string;
  posOrderUrl?: string;
  port?: string;
  capabilities?: string;
  only?: string;
  posName?: string;
  posVersion?: string;
  posBuild?: string;
  reportDir: string;
  posTimeoutS?: string;
  waitS?: string;
  windowMs?: string;
}

export const DEFAULT_CERTIFY_REPORT_DIR = 'certification-report';
const DEFAULT_POS_TIMEOUT_S = 60;

export function certifyCommand(): Command {
  return new Command('certify')
    .description('for CI: start a sandbox in this process, wait for the POS, run the whole checklist against its driver, write the report into one folder, exit with the verdict')
    .requiredOption('--driver <url>', "the POS test build's driver (GET /health, POST /decide, /refund, /menu)")
    .option('--pos-order-url <url>', "the POS's order endpoint, where the sandbox delivers orders (default: <driver>/order)")
    .option('--port <port>', `the sandbox's port on 127.0.0.1, where the POS sends its calls (default: PORT, else ${DEFAULT_PORT}, as npm start's)`)
    .option('--capabilities <list>', `what the POS does beyond the required items, comma-separated: ${CAPABILITIES.join(', ')}`)
    .option('--only <ids>', 'run only these items, comma-separated (a practice run, never a certification)')
    .option('--pos-name <name>', 'the POS product under test, as the report names it (default: the sandbox partner)')
    .option('--pos-version <version>', 'the version of the POS build under test; a run without it is a practice run, not a certification')
    .option('--pos-build <id>', 'the build id (commit, CI build number) of the POS under test')
    .option('--report-dir <dir>', 'the folder the report files are written into, as they are: <dir>/junit.xml', DEFAULT_CERTIFY_REPORT_DIR)
    .option('--pos-timeout-s <seconds>', `how long to wait for the driver's GET /health to answer 2xx (default: ${DEFAULT_POS_TIMEOUT_S})`)
    .option('--wait-s <seconds>', 'how long to wait for the POS once asked (default: 15)')
    .option('--window-ms <ms>', 'how long to watch for retries after an injected error (default: 3000)')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 every required item in scope passed (warnings allowed); 1 one failed, was blocked, or none was executed; 2 the run could not start (the POS did not answer, the port is in use, a bad option).',
        'Environment: SANDBOX_PARTNER and SANDBOX_NONPROD_KEY, the partner the sandbox plays (default: the fixtures\' demo partner); PORT, as --port.',
        `Example: SANDBOX_PARTNER=acme-pos SANDBOX_NONPROD_KEY=your-non-prod-key pos-sandbox certify --driver http://127.0.0.1:4200 --capabilities refund,hub,kiosk --pos-version 4.2.0 --report-dir build/certification`,
      ].join('\n'),
    )
    .action(async (flags: CertifyFlags) => {
      let options: CertifyOptions;
      try {
        options = certifyOptions(flags);
      } catch (error) {
        process.stderr.write(`pos-sandbox certify: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const { runCertify } = await import('./certify-run.js');
      process.exit(await runCertify(options));
    });
}

/** Flags → options; every problem throws with the sentence to print. */
export function certifyOptions(flags: CertifyFlags, env: NodeJS.ProcessEnv = process.env): CertifyOptions {
  checkUrls([['--driver', flags.driver], ['--pos-order-url', flags.posOrderUrl]]);
  const values = runFlagValues(flags);
  const given = flags.port ?? (env.PORT?.trim() ? env.PORT : undefined);
  const port = Number(given ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${flags.port === undefined ? 'PORT' : '--port'} must be a port number from 0 to 65535, got '${given}'`);
  const posTimeoutS = flags.posTimeoutS === undefined ? DEFAULT_POS_TIMEOUT_S : Number(flags.posTimeoutS);
  if (!Number.isInteger(posTimeoutS) || posTimeoutS <= 0) throw new UsageError(`--pos-timeout-s must be a whole number of seconds, got '${flags.posTimeoutS}'`);
  if (flags.reportDir.trim() === '') throw new UsageError('--report-dir must name a folder');
  const driverUrl = flags.driver.replace(/\/+$/, '');
  return {
    driverUrl,
    posOrderUrl: flags.posOrderUrl ?? `${driverUrl}/order`,
    port,
    capabilities: values.capabilities,
    ...(values.only ? { only: values.only } : {}),
    pos: values.pos,
    reportDir: flags.reportDir,
    posTimeoutMs: posTimeoutS * 1000,
    ...(values.waitMs !== undefined ? { waitMs: values.waitMs } : {}),
    windowMs: values.windowMs,
  };
}
