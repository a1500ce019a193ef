/**
 * How long `pos-sandbox serve --memory` takes from spawn to its first answer of GET /_sandbox/health, and how long
 * `pos-sandbox --help` takes to exit: what every test that spawns the CLI pays, and what a user waits for.
 * Usage: tsx scripts/cold-start.ts [runs] [port]. Wall times in ms; the child's CPU from /proc is not read, as the
 * process is killed once it answers: use /usr/bin/time on a single start for that.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../server/version.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js');
const runs = Number(process.argv[2] ?? 10);
const port = Number(process.argv[3] ?? 47100);

async function serveToHealth(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--memory', '--port', String(port)], { stdio: 'ignore' });
  try {
    // Polls rather than reading the banner: the figure is the time until a client is answered.
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/_sandbox/health`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}

function help(): number {
  const started = performance.now();
  const done = spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
  if (done.status !== 0) throw new Error(`--help exited with ${done.status}`);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const serveTimes: number[] = [];
const helpTimes: number[] = [];
for (let i = 0; i < runs; i++) {
  serveTimes.push(await serveToHealth());
  helpTimes.push(help());
}
const show = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} (${xs.length} runs)`;
console.log(`serve --memory, spawn to first health answer: ${show(serveTimes)}`);
console.log(`--help: ${show(helpTimes)}`);
