/** `npm run bench:scale`: 1,000 partners on a real PostgreSQL: memory with 20 in use against all made, a sleeping partner's first request, a request sent on, refunds over 20 partners on one and two instances. */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintPosToken } from '../server/tokens/mint-pos-token.js';
import { ownerOf } from '../server/hosted/placement.js';
import { startPostgres } from '../server/test/postgres.js';
import { rssMb, startServer } from './bench-process.js';

const PARTNERS = [...Array(Number(process.env.BENCH_PARTNERS ?? 1000))].map((_, i) => `scale-pos-${String(i).padStart(4, '0')}`);
const ACTIVE = 20;
const KEY = 'scale-nonprod-key-'.padEnd(40, 's');
const OPERATOR = 'scale-operator-token-0001';

let sequence = 0;
async function refund(base: string, partner: string): Promise<{ status: number; ms: number }> {
  const { token } = mintPosToken({ posName: partner, key: KEY, locationId: 'loc-std-001', ttlSeconds: 600, nowSeconds: Math.floor(Date.now() / 1000) });
  const started = performance.now();
  const answer = await fetch(`${base}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'x-api-key': 'k', 'content-type': 'application/json' },
    body: JSON.stringify({ ExternalId: `SCALE-${++sequence}` }),
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

/** Refunds for THROUGHPUT_S from 16 connections, each to the next URL and the next partner in turn: answered 2xx a second. */
async function throughput(urls: string[], partners: string[]): Promise<number> {
  for (const partner of partners) for (const url of urls) await refund(url, partner);
  let done = 0;
  let n = 0;
  const until = Date.now() + THROUGHPUT_S * 1000;
  const connection = async () => {
    while (Date.now() < until) {
      const i = n++;
      if ((await refund(urls[i % urls.length]!, partners[i % partners.length]!)).status === 200) done++;
    }
  };
  await Promise.all([...Array(16)].map(connection));
  return done / THROUGHPUT_S;
}

const THROUGHPUT_S = Number(process.env.BENCH_THROUGHPUT_S ?? 10);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function led(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${OPERATOR}` } })).text();
  return Number(/^pos_sandbox_partners_led (\d+)$/m.exec(text)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const file = join(dir, 'partners.json');
  writeFileSync(file, JSON.stringify({ operatorToken: OPERATOR, partners: PARTNERS.map((name, i) => ({ name, nonProdKey: KEY, adminToken: `scale-admin-token-${String(i).padStart(4, '0')}` })) }));
  const onePartner = join(dir, 'one-partner.json');
  writeFileSync(onePartner, JSON.stringify({ operatorToken: OPERATOR, partners: [{ name: PARTNERS[0], nonProdKey: KEY, adminToken: 'scale-admin-token-only' }] }));
  const database = await startPostgres();
  const rows: string[][] = [];
  const serve = async (url: string, idleMs: string) => startServer(['bin/pos-sandbox.js', 'serve', '--partners', file, '--store', url, '--idle-ms', idleMs, '--log-level', 'warn', '--refund-delay-ms', '50']);
  try {
    // Memory: an instance with one partner configured, the baseline of what a partner asleep costs.
    const base = await startServer(['bin/pos-sandbox.js', 'serve', '--partners', onePartner, '--store', await database.createDatabase('scale_base'), '--log-level', 'warn']);
    const baseRss = rssMb(base.child.pid!);
    base.child.kill('SIGTERM');
    // 20 in use of 1,000, against all 1,000 made.
    const lazyUrl = await database.createDatabase('scale_lazy');
    const lazy = await serve(lazyUrl, '600000');
    const lazyAtStart = rssMb(lazy.child.pid!);
    const first: number[] = [];
    const next: number[] = [];
    for (const partner of PARTNERS.slice(0, ACTIVE)) {
      const made = await refund(lazy.url, partner);
      if (made.status !== 200) throw new Error(`a first refund of ${partner} answered ${made.status}`);
      first.push(made.ms);
      for (let i = 0; i < 5; i++) next.push((await refund(lazy.url, partner)).ms);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const lazyActive = rssMb(lazy.child.pid!);
    lazy.child.kill('SIGTERM');
    const eagerUrl = await database.createDatabase('scale_eager');
    const eager = await serve(eagerUrl, '0');
    for (let deadline = Date.now() + 300_000; (await led(eager.url)) < PARTNERS.length; ) {
      if (Date.now() > deadline) throw new Error('the eager instance did not make every partner in 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const eagerAll = rssMb(eager.child.pid!);
    eager.child.kill('SIGTERM');
    rows.push(['RSS, 1 partner configured', `${baseRss.toFixed(0)} MB`, '']);
    rows.push([`RSS, ${PARTNERS.length} partners, none used yet (--idle-ms default)`, `${lazyAtStart.toFixed(0)} MB`, `${(((lazyAtStart - baseRss) * 1024) / (PARTNERS.length - 1)).toFixed(0)} KB per partner asleep`]);
    rows.push([`RSS, ${ACTIVE} in use`, `${lazyActive.toFixed(0)} MB`, `${((lazyActive - lazyAtStart) / ACTIVE).toFixed(2)} MB per partner in use`]);
    rows.push([`RSS, all ${PARTNERS.length} made (--idle-ms 0)`, `${eagerAll.toFixed(0)} MB`, `${(eagerAll / lazyActive).toFixed(1)}× the ${ACTIVE} in use`]);
    rows.push(['first request of a sleeping partner (its sandbox made), median', `${median(first).toFixed(1)} ms`, `${(median(first) / median(next)).toFixed(1)}× a next request (${median(next).toFixed(1)} ms)`]);

    // A request sent on by another instance, against one to the leader.
    const pairUrl = await database.createDatabase('scale_pair');
    const pair = await Promise.all([serve(pairUrl, '600000'), serve(pairUrl, '600000')]);
    const ids = pair.map(({ child }) => `${hostname()}-${child.pid}`);
    const direct: number[] = [];
    const forwarded: number[] = [];
    for (const partner of PARTNERS.slice(0, ACTIVE)) {
      const owner = pair.find(({ child }) => `${hostname()}-${child.pid}` === ownerOf(partner, ids))!;
      const other = pair.find((one) => one !== owner)!;
      await refund(owner.url, partner);
      for (let i = 0; i < 10; i++) {
        direct.push((await refund(owner.url, partner)).ms);
        forwarded.push((await refund(other.url, partner)).ms);
      }
    }
    // Throughput: 20 partners' refunds, on one instance, then on both of the pair.
    const single = await serve(await database.createDatabase('scale_single'), '600000');
    const one = await throughput([single.url], PARTNERS.slice(0, ACTIVE));
    single.child.kill('SIGTERM');
    const two = await throughput(pair.map(({ url }) => url), PARTNERS.slice(0, ACTIVE));
    // Stopped, and gone, before the database is: an instance stops by committing what it holds.
    for (const instance of pair) instance.child.kill('SIGTERM');
    await Promise.all(pair.map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    rows.push([`refunds over ${ACTIVE} partners, 1 instance`, `${one.toFixed(0)} req/s`, '']);
    rows.push([`refunds over ${ACTIVE} partners, 2 instances (both take requests)`, `${two.toFixed(0)} req/s`, `${(two / one).toFixed(2)}× 1 instance`]);
    rows.push(['refund to the leading instance, median of 200', `${median(direct).toFixed(1)} ms`, '']);
    rows.push(['refund sent on by the other instance, median of 200', `${median(forwarded).toFixed(1)} ms`, `${(median(forwarded) / median(direct)).toFixed(1)}× to the leader`]);
  } finally {
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`\nhosted scale, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${PARTNERS.length} partners\n\n| measure | figure | ratio |\n|---|---|---|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

await main();
process.exit(0);
