/** From spawning `pos-sandbox serve` to its first health answer, the median of `runs` new processes. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../server/version.js';
import { freePort, SERVER_CORE } from './bench-process.js';

async function once(args: string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('taskset', ['-c', SERVER_CORE, process.execPath, join('bin', 'pos-sandbox.js'), 'serve', '--port', port, '--log-level', 'warn', ...args], {
    cwd: PACKAGE_ROOT,
    stdio: 'ignore',
  });
  try {
    const deadline = started + 30_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`serve ${args.join(' ')} exited with ${child.exitCode} before it answered`);
      const answered = await fetch(`http://127.0.0.1:${port}/_sandbox/health`).then((response) => response.ok, () => false);
      if (answered) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`serve ${args.join(' ')} did not answer in 30 s`);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}

/** The median start in ms over `runs` starts (after one unmeasured start that warms the disk cache). */
export async function coldStartMs(args: string[], runs = 5): Promise<number> {
  await once(args);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await once(args));
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
