/** `pos-sandbox checklist`: runs the certification checklist against a POS through the sandbox and writes the report. */
import { join } from 'node:path';
import { Command } from 'commander';
import { CAPABILITIES } from '../../certification-checklist/checklist-types.js';
import { CHECKLIST } from '../../certification-checklist/items/all-items.js';
import { summaryLines } from '../../certification-checklist/progress.js';
import { buildReport } from '../../certification-checklist/report/report-model.js';
import { writeReport } from '../../certification-checklist/report/write-report.js';
import { runChecklist, StartError } from '../../certification-checklist/runner.js';
import { type RunOptions } from '../../certification-checklist/run-options.js';
import { judgedItems, runOutcome } from '../../certification-checklist/run-outcome.js';
import type { RunMode } from '../../certification-checklist/scope.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_REPORT_DIR, DEFAULT_SIGNING_KEY } from '../config.js';
import type { ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { laptopReportKeys } from '../checklist/report-keys.js';
import { signerWords } from '../../certification-checklist/report/render-statement.js';

export { DEFAULT_REPORT_DIR };
import { resolveSandboxUrl } from './control-client.js';
import { checkUrls, runFlagValues, UsageError } from './run-flags.js';

interface ChecklistFlags {
  sandbox?: string;
  posOrderUrl?: string;
  driver?: string;
  interactive?: boolean;
  passive?: boolean;
  capabilities?: string;
  only?: string;
  reportDir: string;
  waitS?: string;
  windowMs?: string;
  posName?: string;
  posVersion?: string;
  posBuild?: string;
  signingKey?: string;
}



export function checklistCommand(): Command {
  return new Command('checklist')
    .description('run the certification checklist against a POS through a running sandbox, and write the report')
    .option('--sandbox <url>', `the running sandbox (default: SANDBOX_URL, else http://${DEFAULT_HOST}:${DEFAULT_PORT})`)
    .option('--pos-order-url <url>', "the POS's order endpoint, where the checklist's orders go (default: SANDBOX_POS_ORDER_URL, else the sandbox's own --pos-order-url)")
    .option('--driver <url>', 'automated: the POS test build implements the driver contract at this URL')
    .option('--interactive', 'a person at the POS is told what to do, with a reference to type in, and given a countdown')
    .option('--passive', 'judge only what the journal already holds; nothing is sent')
    .option('--capabilities <list>', `what the POS does beyond the required items, comma-separated: ${CAPABILITIES.join(', ')}`)
    .option('--only <ids>', 'run only these items, comma-separated (AUTH-05,ORDER-01)')
    .option('--pos-name <name>', 'the POS product under test, as the report names it (default: the sandbox partner, the token iss)')
    .option('--pos-version <version>', 'the version of the POS build under test; a run without it is a practice run, not a certification')
    .option('--pos-build <id>', 'the build id (commit, CI build number) of the POS under test')
    .option('--report-dir <dir>', 'where the report folder <run-id>/ is written', DEFAULT_REPORT_DIR)
    .option('--signing-key <file>', "the Ed25519 key (PEM) this machine signs its reports with, made there if missing; the report says self-signed", DEFAULT_SIGNING_KEY)
    .option('--wait-s <seconds>', 'how long to wait for the POS once asked (default: 15 with --driver, 120 with --interactive)')
    .option('--window-ms <ms>', 'how long to watch for retries after an injected error (default: 3000)')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 every required item in scope passed (warnings allowed); 1 one failed, was blocked, or none was executed; 2 the run could not start.',
        'Only a full --driver or --interactive run with --pos-version, against a POS that is not the bundled reference POS, is a certification; the report of any other run says "not a certification" in its title.',
        `Items: ${CHECKLIST.map((item) => item.id).join(', ')}.`,
        'Environment: SANDBOX_URL; SANDBOX_ADMIN_TOKEN, sent to the control API of a sandbox started with --admin-token or --partners (the partner\'s own token).',
        'Example: npx pos-sandbox checklist --pos-order-url http://127.0.0.1:4200/order --driver http://127.0.0.1:4200 --capabilities refund,hub,kiosk --pos-name acme-pos --pos-version 4.2.0',
      ].join('\n'),
    )
    .action(async (flags: ChecklistFlags) => {
      let options: RunOptions;
      try {
        options = runOptions(flags, process.env);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        process.stderr.write(`pos-sandbox checklist: ${error.message}\n`);
        process.exit(2);
      }
      let keys: ReportKeys;
      try {
        keys = laptopReportKeys(flags.signingKey ?? DEFAULT_SIGNING_KEY);
      } catch (error) {
        process.stderr.write(`pos-sandbox checklist: ${(error as Error).message}\n`);
        process.exit(2);
      }
      process.exitCode = await runAndReport(options, flags.reportDir, keys);
    });
}

/** Runs, prints a line per item, writes the report (into `reportDir` itself with `reportAsIs`), prints the summary, answers the exit code. */
export async function runAndReport(options: RunOptions, reportDir: string, keys: ReportKeys, out: NodeJS.WriteStream = process.stdout, reportAsIs = false): Promise<number> {
  out.write(`Certification checklist: ${describeScope(options)}\n\n`);
  let run;
  try {
    run = await runChecklist({ ...options, out, live: out.isTTY === true });
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    process.stderr.write(`pos-sandbox checklist: the run could not start: ${error.message}\n`);
    return 2;
  }
  const outcome = runOutcome(judgedItems(run.results));
  const report = buildReport(run, outcome, keys.signer);
  const folder = await writeReport(reportDir, report, keys.signer, { asIs: reportAsIs });
  out.write(summaryLines(outcome, run.kind, folder, signerWords(report.signer).who));
  if (reportAsIs) out.write(`  junit: ${join(folder, 'junit.xml')}\n`);
  return outcome.exitCode;
}

function describeScope(options: RunOptions): string {
  const mode = options.mode === 'driver' ? `driver ${options.driverUrl}` : options.mode;
  const declared = options.capabilities.length > 0 ? options.capabilities.join(', ') : 'none (the required items only)';
  const pos = options.pos?.name || options.pos?.version ? `\n  POS under test: ${[options.pos.name ?? '(the sandbox partner)', options.pos.version, options.pos.build && `build ${options.pos.build}`].filter(Boolean).join(' ')}` : '';
  return `sandbox ${options.sandboxUrl}, ${mode}\n  declared capabilities: ${declared}${options.only ? `\n  items: ${options.only.join(', ')}` : ''}${pos}`;
}

/** Flags and environment → run options; every problem is a UsageError. */
export function runOptions(flags: ChecklistFlags, env: NodeJS.ProcessEnv): RunOptions {
  const modes = [flags.driver !== undefined && 'driver', flags.interactive && 'interactive', flags.passive && 'passive'].filter(Boolean) as RunMode[];
  if (modes.length !== 1) throw new UsageError(`choose exactly one of --driver URL, --interactive, --passive${modes.length > 1 ? ` (got ${modes.join(' and ')})` : ''}`);
  const values = runFlagValues(flags);
  const posOrderUrl = flags.posOrderUrl ?? env.SANDBOX_POS_ORDER_URL;
  const sandbox = resolveSandboxUrl(flags.sandbox, env);
  if (!sandbox.ok) throw new UsageError(sandbox.problem);
  checkUrls([['--driver', flags.driver], ['--pos-order-url', posOrderUrl]]);
  const { pos } = values;
  return {
    sandboxUrl: sandbox.url,
    ...(posOrderUrl ? { posOrderUrl } : {}),
    mode: modes[0]!,
    ...(flags.driver ? { driverUrl: flags.driver } : {}),
    capabilities: values.capabilities,
    ...(values.only ? { only: values.only } : {}),
    ...(values.waitMs ? { waitMs: values.waitMs } : {}),
    windowMs: values.windowMs,
    ...(Object.keys(pos).length > 0 ? { pos } : {}),
    // Behind --admin-token, or a partner's token of a hosted sandbox: the run's control calls carry it.
    ...(env.SANDBOX_ADMIN_TOKEN ? { adminToken: env.SANDBOX_ADMIN_TOKEN } : {}),
    out: process.stdout,
  };
}
