/**
 * npm run bench:soak: a 60 s refund load against `serve` with a real lowdb data file, to show that
 * throughput at the end is what it was at the start (the store's writes do not grow with the data).
 * Loopback only, bounded in time. BENCH_SOAK_SECONDS shortens it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { refundHeaders, startServer } from './bench-process.js';
import { nextPageLink } from '../server/control/paging.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const WINDOW = Math.max(1, Math.min(10, Math.floor(SECONDS / 4)));
const dir = mkdtempSync(join(tmpdir(), 'soak-'));
const data = join(dir, 'db.json');
// BENCH_SOAK_MEMORY=1 runs the same load with --memory: the difference is what the disk costs.
const storage = process.env.BENCH_SOAK_MEMORY ? ['--memory'] : ['--data', data];
let child: ChildProcess | undefined;

try {
  const server = await startServer([join('bin', 'pos-sandbox.js'), 'serve', '--port', '0', ...storage, '--log-level', 'warn']);
  child = server.child;
  const baseUrl = server.url;
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
        headers: refundHeaders(),
        // A distinct ExternalId each time, as a POS refunding many orders sends.
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ ExternalId: `SOAK-${++n}` }) }),
      },
    ],
  }, (_error, result) => finished(result));
  (instance as unknown as NodeJS.EventEmitter).on('tick', ({ counter }: { counter: number }) => perSecond.push(counter));
  const result = await done;
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  // autocannon ticks once more when it stops, with the 0 requests of that last instant: counted, it read the
  // last window ~10% low. Only the SECONDS full seconds of load are compared.
  const loaded = perSecond.slice(0, SECONDS);
  const first = average(loaded.slice(0, WINDOW));
  const last = average(loaded.slice(-WINDOW));
  // The list comes a page at a time: count every page.
  let pending = 0;
  for (let next: string | undefined = '/_sandbox/refunds?status=PENDING&limit=5000'; next !== undefined; ) {
    const page: Response = await fetch(new URL(next, baseUrl));
    pending += ((await page.json()) as unknown[]).length;
    next = nextPageLink(page.headers.get('link'));
  }
  const segments = process.env.BENCH_SOAK_MEMORY ? [] : readdirSync(join(dir, 'db.segments')).filter((file) => /^refunds-.*\.json$/.test(file));
  const largest = Math.max(0, ...segments.map((file) => statSync(join(dir, 'db.segments', file)).size));

  console.log(`POST /v2/order/refund, ${storage[0]}, 10 connections, ${SECONDS} s, server and load on one 2-core machine`);
  console.log(`requests: ${result.requests.total} (non-2xx ${result.non2xx}), p99 ${result.latency.p99} ms`);
  console.log(`first ${WINDOW} s: ${first.toFixed(0)} req/s   last ${WINDOW} s: ${last.toFixed(0)} req/s   ratio last/first: ${(last / first).toFixed(2)}`);
  console.log(`refunds stored: ${result.requests.total} in ${segments.length} segment files, the largest ${(largest / 1024).toFixed(0)} KiB; still PENDING at the end: ${pending}`);
} finally {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
}
