/** The long run against a data file: a soak, then on to `total` refunds, then memory, the folder, and a start from it. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { nextPageLink } from '../server/control/control-query.js';
import { freePort, refundHeaders, rssMb, startPinnedServer } from './bench-process.js';

export interface SoakResult {
  seconds: number;
  first: number;
  last: number;
  p99: number;
  non2xx: number;
}

export interface FilledState {
  sent: number;
  kept: number;
  rssMb: number;
  rssAtStartMb: number;
  folderMb: number;
  files: number;
}

/** A fresh server's first seconds run code V8 has not compiled yet: a window holding them measures the warm-up. */
const SOAK_WARM_UP_SECONDS = 5;

/** Sends refunds with a new ExternalId each (the clean path) for `seconds` after a warm-up, counting each second's answers. */
async function soak(url: string, seconds: number, counter: { n: number }): Promise<SoakResult> {
  const window = Math.max(1, Math.min(10, Math.floor(seconds / 4)));
  const refund = () => JSON.stringify({ ExternalId: `SOAK-${++counter.n}` });
  await autocannon({ url, connections: 10, duration: SOAK_WARM_UP_SECONDS, requests: [{ method: 'POST', path: '/v2/order/refund', headers: refundHeaders(), setupRequest: (req) => ({ ...req, body: refund() }) }] });
  const perSecond: number[] = [];
  let finished: (result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon(
    {
      url,
      connections: 10,
      duration: seconds,
      requests: [{ method: 'POST', path: '/v2/order/refund', headers: refundHeaders(), setupRequest: (req) => ({ ...req, body: refund() }) }],
    },
    (_error, result) => finished(result),
  );
  (instance as unknown as NodeJS.EventEmitter).on('tick', ({ counter: answered }: { counter: number }) => perSecond.push(answered));
  const result = await done;
  // autocannon ticks once more as it stops, with the few requests of that instant: only full seconds count.
  const loaded = perSecond.slice(0, seconds);
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return { seconds: window, first: average(loaded.slice(0, window)), last: average(loaded.slice(-window)), p99: result.latency.p99, non2xx: result.non2xx };
}

/** Counts every refund the control API lists with `query` (a page at a time). */
async function countRefunds(url: string, query: string): Promise<number> {
  let count = 0;
  for (let next: string | undefined = `/_sandbox/refunds?limit=5000${query}`; next !== undefined; ) {
    const page: Response = await fetch(new URL(next, url));
    count += ((await page.json()) as unknown[]).length;
    next = nextPageLink(page.headers.get('link'));
  }
  return count;
}

function folderSize(dir: string): { mb: number; files: number } {
  const files = readdirSync(dir);
  return { mb: files.reduce((sum, file) => sum + statSync(join(dir, file)).size, 0) / 1024 / 1024, files: files.length };
}

/** A soak when asked, then refunds until `total`, every one decided; then its RSS and the folder. */
export async function fillState(dataFile: string, args: string[], total: number, soakSeconds: number): Promise<{ soak?: SoakResult; state: FilledState }> {
  const port = await freePort();
  const server = await startPinnedServer([join('bin', 'pos-sandbox.js'), 'serve', '--data', dataFile, '--log-level', 'warn', ...args], { PORT: port });
  try {
    const pid = server.child.pid!;
    const rssAtStartMb = rssMb(pid);
    const counter = { n: 0 };
    const soaked = soakSeconds > 0 ? await soak(server.url, soakSeconds, counter) : undefined;
    // Counted as sent: autocannon's total leaves out those in flight when it stops.
    if (total > counter.n) {
      await autocannon({
        url: server.url,
        connections: 50,
        amount: total - counter.n,
        requests: [{ method: 'POST', path: '/v2/order/refund', headers: refundHeaders(), setupRequest: (req) => ({ ...req, body: JSON.stringify({ ExternalId: `FILL-${++counter.n}` }) }) }],
      });
    }
    const sent = counter.n;
    // Every refund decided (a second after it was accepted) before memory and disk are looked at.
    for (let waited = 0; waited < 30 && (await countRefunds(server.url, '&status=PENDING')) > 0; waited++) await new Promise((resolve) => setTimeout(resolve, 500));
    const kept = await countRefunds(server.url, '');
    const folder = folderSize(join(dataFile.replace(/\.json$/, '.segments')));
    return { soak: soaked, state: { sent, kept, rssMb: rssMb(pid), rssAtStartMb, folderMb: folder.mb, files: folder.files } };
  } finally {
    server.child.kill('SIGKILL');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve(undefined) : server.child.once('exit', resolve)));
  }
}
