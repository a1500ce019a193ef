/**
 * npm run bench:soak: a 60 s refund load against `serve` with a real lowdb data file, to show that
 * throughput at the end is what it was at the start (the store's writes do not grow with the data).
 * Loopback only, bounded in time. BENCH_SOAK_SECONDS shortens it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mintPosToken } from '../server/domain/mint-pos-token.js';
import { PACKAGE_ROOT } from '../server/version.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const WINDOW = Math.max(1, Math.min(10, Math.floor(SECONDS / 4)));
const KEY = 'SANDBOX-ONLY-nonprod-key-demo-pos-3f9c2a7e5b1d4c8a9e6f0b2d7a4c1e85';
const dir = mkdtempSync(join(tmpdir(), 'soak-'));
const data = join(dir, 'db.json');
// BENCH_SOAK_MEMORY=1 runs the same load with --memory: the difference is what the disk costs.
const storage = process.env.BENCH_SOAK_MEMORY ? ['--memory'] : ['--data', data];
const child = spawn(process.execPath, [join('bin', 'pos-sandbox.js'), 'serve', '--port', '0', ...storage, '--log-level', 'warn'], {
  cwd: PACKAGE_ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});

try {
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  child.stdout.resume();
  const { token } = mintPosToken({ posName: 'demo-pos', key: KEY, locationId: 'loc-std-001', ttlSeconds: 3600, nowSeconds: Math.floor(Date.now() / 1000) });
  let n = 0;
  const perSecond: number[] = [];
  let finished: (result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon({
    url: baseUrl,
    connections: 10,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v2/order/refund',
        headers: {
          authorization: `Bearer ${token}`,
          'x-service-locationid': 'loc-std-001',
          'x-api-key': 'k',
          'x-api-version': '2',
          'content-type': 'application/json',
        },
        // A distinct ExternalId each time, as a POS refunding many orders sends.
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ ExternalId: `SOAK-${++n}` }) }),
      },
    ],
  }, (_error, result) => finished(result));
  (instance as unknown as NodeJS.EventEmitter).on('tick', ({ counter }: { counter: number }) => perSecond.push(counter));
  const result = await done;
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const first = average(perSecond.slice(0, WINDOW));
  const last = average(perSecond.slice(-WINDOW));
  const refunds = (await (await fetch(`${baseUrl}/_sandbox/refunds?status=PENDING`)).json()) as unknown[];
  const segments = process.env.BENCH_SOAK_MEMORY ? [] : readdirSync(join(dir, 'db.segments')).filter((file) => /^refunds-.*\.json$/.test(file));
  const largest = Math.max(0, ...segments.map((file) => statSync(join(dir, 'db.segments', file)).size));

  console.log(`POST /v2/order/refund, ${storage[0]}, 10 connections, ${SECONDS} s, server and load on one 2-core machine`);
  console.log(`requests: ${result.requests.total} (non-2xx ${result.non2xx}), p99 ${result.latency.p99} ms`);
  console.log(`first ${WINDOW} s: ${first.toFixed(0)} req/s   last ${WINDOW} s: ${last.toFixed(0)} req/s   ratio last/first: ${(last / first).toFixed(2)}`);
  console.log(`refunds stored: ${result.requests.total} in ${segments.length} segment files, the largest ${(largest / 1024).toFixed(0)} KiB; still PENDING at the end: ${refunds.length}`);
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
