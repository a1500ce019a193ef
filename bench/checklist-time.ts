/** npm run bench:checklist: a whole checklist run's time against a correct POS (the baseline) and broken ones, round by round. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../server/version.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SCENARIOS: Array<{ name: string; bugs?: string }> = [
  { name: 'correct POS (baseline)' },
  { name: 'every call refused 401: exp in milliseconds', bugs: 'exp-in-ms' },
  { name: 'every call refused 401: wrong audience', bugs: 'wrong-token-audience' },
  { name: 'no status call ever', bugs: 'no-status-call' },
  { name: 'every refund refused 400 (no location header)', bugs: 'refund-no-location' },
  { name: 'a refund never sent again after the outage', bugs: 'no-retry-after-5xx' },
];

/** One demo run: its wall time and the verdict line it ends with. */
function demo(bugs: string | undefined): Promise<{ seconds: number; verdict: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-checklist-'));
  const args = [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'demo', '--report-dir', reports, ...(bugs ? ['--bug', bugs] : [])];
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      rmSync(reports, { recursive: true, force: true });
      const verdict = /^(?:NOT A CERTIFICATION \([^)]*\)\. )?((?:PASSED|FAILED|INCOMPLETE):[^\n]*)$/m.exec(out)?.[1] ?? 'no verdict line';
      resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, verdict });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const times = new Map<string, number[]>(SCENARIOS.map((scenario) => [scenario.name, []]));
const verdicts = new Map<string, string>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const scenario of SCENARIOS) {
    const run = await demo(scenario.bugs);
    times.get(scenario.name)!.push(run.seconds);
    verdicts.set(scenario.name, run.verdict);
    console.log(`round ${round}: ${scenario.name}: ${run.seconds.toFixed(1)} s`);
  }
}
const baseline = median(times.get(SCENARIOS[0]!.name)!);
console.log(`\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${ROUNDS} rounds, median wall time of npm run demo:`);
console.log('| scenario | --bug | seconds | × correct POS | verdict |');
console.log('|---|---|---|---|---|');
for (const scenario of SCENARIOS) {
  const seconds = median(times.get(scenario.name)!);
  console.log(`| ${scenario.name} | ${scenario.bugs ?? ''} | ${seconds.toFixed(1)} | ${(seconds / baseline).toFixed(2)} | ${verdicts.get(scenario.name)!.slice(0, 60)}… |`);
}
