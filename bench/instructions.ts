/** npm run bench:instructions: instructions per clean refund under callgrind: a count, not a time, though two counts of one build still differ by a few percent (docs/performance.md). */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { freePort, refundHeaders } from './bench-process.js';

const WARMUP = Number(process.env.BENCH_IR_WARMUP ?? 3000);
const REFUNDS = Number(process.env.BENCH_IR_REFUNDS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_IR_CONNECTIONS ?? 1);
const AGAINST = process.env.BENCH_AGAINST === undefined ? undefined : resolve(process.env.BENCH_AGAINST);

const STORES: Array<{ name: string; args: (dir: string) => string[] }> = [
  { name: 'serve --memory', args: () => ['--memory'] },
  { name: 'serve (data file)', args: (dir) => ['--data', join(dir, 'db.json')] },
];

/** The instructions `root`'s sandbox executes per refund with `storeArgs`. */
async function instructionsPerRefund(root: string, storeArgs: (dir: string) => string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-ir-'));
  const port = await freePort();
  const server = spawn(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${join(dir, 'callgrind.out')}`, process.execPath, '--single-threaded', join('bin', 'pos-sandbox.js'), 'serve', '--log-level', 'warn', '--port', port, '--refund-delay-ms', '0', ...storeArgs(dir)],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  server.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  try {
    const url = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 180_000; !(await fetch(`${url}/_sandbox/health`).then((answer) => answer.ok, () => false)); ) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox of ${root} did not start under valgrind:\n${errors}`);
      await new Promise((done) => setTimeout(done, 250));
    }
    let sent = 0;
    const send = (amount: number) =>
      autocannon({ url: `${url}/v2/order/refund`, connections: CONNECTIONS, amount, timeout: 60, headers: refundHeaders(), requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify({ ExternalId: `IR-${++sent}` }) }) }] });
    await send(WARMUP);
    execFileSync('callgrind_control', ['--zero', String(server.pid)], { stdio: 'ignore' });
    const measured = await send(REFUNDS);
    if (measured.non2xx > 0 || measured.errors > 0) throw new Error(`${measured.non2xx} refunds answered other than 2xx, ${measured.errors} errors`);
    // The refunds are decided a second after they are accepted: that work is part of each one.
    await new Promise((done) => setTimeout(done, 2000));
    execFileSync('callgrind_control', ['--dump', String(server.pid)], { stdio: 'ignore' });
    const dump = readdirSync(dir).find((name) => name.startsWith('callgrind.out.') && !name.endsWith('.0'));
    const text = dump === undefined ? '' : readFileSync(join(dir, dump), 'utf8');
    const total = /^(?:summary|totals): (\d+)/m.exec(text)?.[1];
    if (total === undefined) throw new Error(`callgrind wrote no count for ${root}`);
    return Number(total) / REFUNDS;
  } finally {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync('/usr/bin/valgrind') && !existsSync('/usr/local/bin/valgrind')) {
  console.error('npm run bench:instructions needs valgrind: apt-get install -y valgrind');
  process.exit(1);
}
if (AGAINST !== undefined && !existsSync(join(AGAINST, 'dist'))) {
  console.error(`BENCH_AGAINST=${AGAINST} has no dist/: run npm run build there first`);
  process.exit(1);
}
const out: string[] = [];
out.push(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:instructions\`, Node ${process.version} under callgrind (--single-threaded, --refund-delay-ms 0): ${REFUNDS} clean refunds (a new ExternalId each, ${CONNECTIONS} connection${CONNECTIONS === 1 ? '' : 's'}) after ${WARMUP} of warm-up, and the 2 s after them.`);
out.push('');
out.push(AGAINST === undefined ? '| server | instructions per refund |' : `| server | instructions per refund | ${AGAINST} | ratio |`);
out.push(AGAINST === undefined ? '|---|---|' : '|---|---|---|---|');
for (const store of STORES) {
  process.stderr.write(`${store.name}…\n`);
  const here = await instructionsPerRefund(PACKAGE_ROOT, store.args);
  if (AGAINST === undefined) out.push(`| ${store.name} | ${Math.round(here)} |`);
  else {
    const there = await instructionsPerRefund(AGAINST, store.args);
    out.push(`| ${store.name} | ${Math.round(here)} | ${Math.round(there)} | ${(here / there).toFixed(3)} |`);
  }
}
process.stdout.write(`${out.join('\n')}\n`);
