/** npm run check:repeat [-- --runs N --without-load]: the whole checklist N times against the reference POS, correct and with its refunds broken; fails when a status differs between runs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../server/version.js';
import { run } from './package-check/processes.js';
import { statusDifferences, type RunStatuses } from './repeat-check/status-differences.js';

interface Configuration {
  name: string;
  bugs: string[];
}

/** The reference POS as it is, and one whose refunds loop on every error: the items that inject faults, both ways. */
const CONFIGURATIONS: Configuration[] = [
  { name: 'correct POS', bugs: [] },
  { name: 'refunds broken (--bug retry-storm)', bugs: ['retry-storm'] },
];

/** Quick timings, as docs/certification.md's quicker demo: the windows the faults are watched in are at their tightest. */
const QUICK = ['--window-ms', '300', '--refund-delay-ms', '50', '--retry-delays-ms', '50'];

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, 'without-load': { type: 'boolean', default: false } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 2) {
  process.stderr.write(`check:repeat: --runs must be a whole number of at least 2, got '${values.runs}'\n`);
  process.exit(2);
}

/** One core kept busy while the runs go on: the minute a machine is slow is the one a verdict must not depend on. */
function burner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** One demo run's statuses, from its report.json. */
async function demoRun(configuration: Configuration): Promise<RunStatuses> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-repeat-'));
  try {
    const args = [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'demo', '--report-dir', dir, ...QUICK, ...(configuration.bugs.length > 0 ? ['--bug', configuration.bugs.join(',')] : [])];
    const done = await run(process.execPath, args, { cwd: PACKAGE_ROOT });
    const folders = readdirSync(dir);
    if (folders.length !== 1) throw new Error(`pos-sandbox demo (${configuration.name}) exited ${done.code} without a report:\n${done.stdout}${done.stderr}`);
    const report = JSON.parse(readFileSync(join(dir, folders[0]!, 'report.json'), 'utf8')) as { items: Array<{ id: string; status: string; blockedBy?: string; message: string }> };
    return Object.fromEntries(report.items.map((item) => [item.id, { status: item.blockedBy ? `${item.status} by ${item.blockedBy}` : item.status, message: item.message }]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function repeat(configuration: Configuration): Promise<{ configuration: Configuration; statuses: RunStatuses[] }> {
  const statuses: RunStatuses[] = [];
  for (let i = 0; i < runs; i++) {
    statuses.push(await demoRun(configuration));
    process.stdout.write(`  ${configuration.name}: run ${i + 1} of ${runs} done\n`);
  }
  return { configuration, statuses };
}

const load = values['without-load'] ? undefined : burner();
const began = Date.now();
process.stdout.write(`check:repeat: ${runs} runs of each of ${CONFIGURATIONS.length} configurations, ${load ? 'with one core kept busy beside them' : 'with nothing beside them'}\n`);
let problems: string[] = [];
try {
  const results = await Promise.all(CONFIGURATIONS.map(repeat));
  for (const { configuration, statuses } of results) {
    problems = problems.concat(statusDifferences(statuses).map((line) => `${configuration.name}: ${line}`));
    if (configuration.bugs.length === 0) {
      const notPassed = Object.entries(statuses[0]!).filter(([, said]) => said.status !== 'pass');
      problems = problems.concat(notPassed.map(([id, said]) => `${configuration.name}: ${id} is ${said.status}, not pass ("${said.message}")`));
    }
    const shown = Object.entries(statuses[0]!).filter(([, said]) => said.status !== 'pass').map(([id, said]) => `${id} ${said.status}`);
    process.stdout.write(`  ${configuration.name}: ${shown.length === 0 ? 'every item passed' : shown.join(', ')}\n`);
  }
} catch (error) {
  problems.push((error as Error).message);
} finally {
  load?.kill();
}
const seconds = Math.round((Date.now() - began) / 1000);
if (problems.length > 0) {
  process.stdout.write(`check:repeat FAILED in ${seconds} s: a verdict differed between runs, or the correct POS did not pass:\n${problems.map((line) => `  - ${line}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`check:repeat passed in ${seconds} s: every item had the same status in all ${runs} runs of each configuration\n`);
