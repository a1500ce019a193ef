/** `pos-sandbox stress` (docs/stress.md): the hunt for the orders that break a POS, each failure shrunk and saved for `orders replay`; or --rush, decision times at a rate against the deadlines. */
import { randomInt } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { printable } from '../http/messages.js';
import { type Deadlines, DEFAULT_DEADLINES } from '../stress/delivery-verdict.js';
import { CaseRunner, readTarget, saveFailures, renderStressReport, reportLines, type StressReport } from '../stress/stress-run.js';
import { LiveView } from '../stress/live-view.js';
import { sandboxOption, withSandbox, type Common } from './control-command-kit.js';

interface StressFlags extends Common {
  orders: number;
  seed?: number;
  rush?: boolean;
  rate: number;
  durationS: number;
  statusWindowMs: number;
  kioskDeadlineMs: number;
  deliveryDeadlineMs: number;
  posOrderUrl?: string;
  reportDir: string;
  shrinkS: number;
}

export const DEFAULT_STRESS_DIR = 'stress-reports';

const whole = (name: string, min: number, max: number) => (value: string) => {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}, got '${value}'`);
  return parsed;
};

export function stressCommand(): Command {
  return new Command('stress')
    .description('hunt for the orders that break the POS: generated orders through the running sandbox, each failure shrunk and saved; --rush for a lunch rush')
    .option('--orders <n>', 'how many orders the hunt generates', whole('--orders', 1, 100_000), 500)
    .option('--seed <n>', 'the seed: the same seed sends the same orders (default: a new one, printed)', whole('--seed', 0, 2 ** 31 - 1))
    .option('--rush', 'a lunch rush instead of a hunt: --rate orders a second for --duration-s seconds, over every location')
    .option('--rate <n>', 'with --rush, orders a second', whole('--rate', 1, 1000), 20)
    .option('--duration-s <n>', 'with --rush, for how long', whole('--duration-s', 1, 3600), 30)
    .option('--status-window-ms <ms>', 'how long to wait for the POS to decide an order (its reply or its status call)', whole('--status-window-ms', 0, 600_000), 2000)
    .option('--kiosk-deadline-ms <ms>', 'a kiosk order must be decided this soon after it was sent', whole('--kiosk-deadline-ms', 1, 600_000), DEFAULT_DEADLINES.kioskMs)
    .option('--delivery-deadline-ms <ms>', "any other order, this soon (default: the sandbox's delivery timeout)", whole('--delivery-deadline-ms', 1, 600_000), DEFAULT_DEADLINES.deliveryMs)
    .option('--shrink-s <s>', 'how long each failure may be shrunk: every try of a failing order costs its retries or timeout', whole('--shrink-s', 0, 3600), 30)
    .option('--pos-order-url <url>', "where the orders go (default: the sandbox's --pos-order-url)")
    .option('--report-dir <dir>', 'where the run folder <run-id>/ is written: the report and the saved failures', DEFAULT_STRESS_DIR)
    .addOption(sandboxOption())
    .addHelpText('after', '\nExit codes: 0 nothing found (every order taken and decided in time); 1 a failure found or a deadline missed; 2 a bad command line.\nSend a saved failure again: pos-sandbox orders replay <run-id>/failures/<kind>.json. docs/stress.md says the rest.')
    .action((flags: StressFlags) =>
      withSandbox(flags, async (client) => {
        const seed = flags.seed ?? randomInt(0, 2 ** 31 - 1);
        const deadlines: Deadlines = { kioskMs: flags.kioskDeadlineMs, deliveryMs: flags.deliveryDeadlineMs };
        const target = await readTarget(client);
        const health = await client.call<{ version?: string }>('GET', '/_sandbox/health');
        const startedAt = new Date();
        const runId = `${startedAt.toISOString().replace(/[:.]/g, '-')}-${seed}`;
        const folder = join(flags.reportDir, runId);
        const runner = new CaseRunner(client, flags.statusWindowMs, deadlines, flags.posOrderUrl);
        const common = `--seed ${seed} --shrink-s ${flags.shrinkS}${flags.posOrderUrl ? ` --pos-order-url ${flags.posOrderUrl}` : ''} --status-window-ms ${flags.statusWindowMs} --kiosk-deadline-ms ${flags.kioskDeadlineMs} --delivery-deadline-ms ${flags.deliveryDeadlineMs}`;
        process.stdout.write(`Stress run ${runId} against ${client.baseUrl} (seed ${seed}), ${target.locations.length} locations\n`);
        const live = new LiveView(client, { mode: flags.rush ? 'rush' : 'hunt', seed, planned: flags.rush ? Math.max(1, Math.round(flags.rate * flags.durationS)) : flags.orders }, (line) => process.stderr.write(`pos-sandbox stress: ${line}\n`));
        const liveId = await live.begin();
        if (liveId !== undefined) process.stdout.write(`live on the dashboard: ${client.baseUrl}/_sandbox/ui/#/stress/${liveId}\n`);
        runner.onSent = ({ testCase, verdict, orderId, decidedMs, shrinking }) => live.sent({ orderId, locationId: testCase.order.LocationId, verdict, decidedMs, shrinking });
        let report: StressReport;
        let finish: Parameters<LiveView['end']>[0];
        if (flags.rush) {
          const { lunchRush } = await import('../stress/lunch-rush.js');
          process.stdout.write(`lunch rush: ${flags.rate} orders/s for ${flags.durationS} s\n`);
          const rush = await lunchRush({
            seed,
            ratePerSecond: flags.rate,
            durationS: flags.durationS,
            locations: target.locations,
            menus: target.menus,
            deadlines,
            run: (testCase) => runner.send(testCase),
          });
          const { orders: _all, ...summary } = rush;
          void _all;
          report = base(runId, 'rush', seed, client.baseUrl, health.version ?? '', startedAt, deadlines, `pos-sandbox stress --rush --rate ${flags.rate} --duration-s ${flags.durationS} ${common}`);
          report.rush = summary;
          process.stdout.write(`decision times: p50 ${Math.round(rush.p50)} ms, p99 ${Math.round(rush.p99)} ms, slowest ${Math.round(rush.slowest)} ms\n`);
          for (const order of rush.missed.slice(0, 20)) process.stdout.write(`  MISSED ${order.orderId} at ${order.locationId}${order.kiosk ? ' (kiosk)' : ''}, ${order.items} item(s): ${Math.round(order.decidedMs)} ms\n`);
          if (rush.missed.length > 20) process.stdout.write(`  … and ${rush.missed.length - 20} more in the report\n`);
          for (const order of rush.failed.slice(0, 20)) process.stdout.write(`  FAILED ${order.orderId}: ${order.verdict.ok ? '' : printable(`${order.verdict.kind}: ${order.verdict.message}`)}\n`);
          if (rush.missed.length > 0 || rush.failed.length > 0) process.exitCode = 1;
          finish = { rush: { p50: Math.round(rush.p50), p99: Math.round(rush.p99), slowest: Math.round(rush.slowest), missed: rush.missed.length, failed: rush.failed.length } };
        } else {
          const { hunt } = await import('../stress/hunt.js');
          let shown = 0;
          const result = await hunt({
            seed,
            orders: flags.orders,
            shrinkMs: flags.shrinkS * 1000,
            locations: target.locations,
            menus: target.menus,
            run: (testCase, sending) => runner.run(testCase, sending),
            onOrder: (_testCase, verdict, shrinking) => {
              if (!shrinking && !verdict.ok && process.stdout.isTTY) process.stdout.write(`  found ${verdict.kind}: ${printable(verdict.message)}; shrinking…\n`);
              shown++;
            },
            onFinding: (finding) => live.found(finding),
          });
          const files = await saveFailures(folder, seed, result.findings);
          report = base(runId, 'hunt', seed, client.baseUrl, health.version ?? '', startedAt, deadlines, `pos-sandbox stress --orders ${flags.orders} ${common}`);
          report.hunt = { ...result, files };
          if (result.findings.length === 0) process.stdout.write(`nothing found: the POS took all ${result.generated} orders as it should (${shown} sent)\n`);
          result.findings.forEach((finding, at) => {
            const smallest = finding.minimalCertain ? 'smallest order' : `smallest order within --shrink-s ${flags.shrinkS}`;
            process.stdout.write(`FOUND ${finding.kind}: ${printable(finding.message)}\n  ${smallest}: ${finding.minimal.order.Items.length} item(s)${finding.minimal.duplicate ? ', delivered twice' : ''}; saved as ${files[at]}\n  send it again: pos-sandbox orders replay ${files[at]}\n`);
          });
          if (result.findings.length > 0) process.exitCode = 1;
          finish = { files };
        }
        report.finishedAt = new Date().toISOString();
        await mkdir(folder, { recursive: true });
        for (const [name, text] of Object.entries(renderStressReport(report))) await writeFile(join(folder, name), text, 'utf8');
        await live.end({ ...finish, verdict: reportLines(report).verdict, reportDir: folder });
        process.stdout.write(`report: ${folder}  (stress.json, stress.md, stress.html, junit.xml)\nrun it again: ${report.reproduce}\n`);
      }),
    );
}

function base(runId: string, mode: 'hunt' | 'rush', seed: number, url: string, version: string, startedAt: Date, deadlines: Deadlines, reproduce: string): StressReport {
  return { format: 'pos-sandbox/stress-report', formatVersion: 1, runId, mode, seed, sandbox: { url, version }, startedAt: startedAt.toISOString(), finishedAt: '', deadlines, reproduce };
}
