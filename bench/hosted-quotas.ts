/** `npm run bench:hosted`: does one partner at all its quotas slow another? B's latency alone, then beside A doing everything it may at once. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mintPosToken } from '../server/tokens/mint-pos-token.js';
import { HOSTED_QUOTAS } from '../server/hosted/quotas.js';
import { cpuMs, startPinnedServer } from './bench-process.js';

const ALONE_S = Number(process.env.BENCH_ALONE_S ?? 20);
const BESIDE_S = Number(process.env.BENCH_BESIDE_S ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** B's steady rate: a POS under test, busy, within its own quota (20 a second). */
const B_RATE = Number(process.env.BENCH_B_RATE ?? 15);
const A = { name: 'partner-a', key: 'partner-a-nonprod-key-'.padEnd(40, 'a'), admin: 'partner-a-admin-token-01' };
const B = { name: 'partner-b', key: 'partner-b-nonprod-key-'.padEnd(40, 'b'), admin: 'partner-b-admin-token-01' };
const OPERATOR = 'operator-token-for-the-bench';
/** What A does (BENCH_A=refunds,streams,exports,runs): all of it by default; one at a time to see what each costs B. */
const A_DOES = new Set((process.env.BENCH_A ?? 'refunds,streams,exports,runs').split(','));
/** Failed runs already said, so each is said once. */
const told = new Set<string>();

function headers(partner: typeof A): Record<string, string> {
  const { token } = mintPosToken({ posName: partner.name, key: partner.key, locationId: 'loc-std-001', ttlSeconds: 3600, nowSeconds: Math.floor(Date.now() / 1000) });
  return { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'content-type': 'application/json' };
}

/** B's refunds for `seconds` at B_RATE: its latencies in ms. */
async function partnerB(url: string, seconds: number): Promise<{ p50: number; p90: number; p99: number; max: number; requests: number; non2xx: number }> {
  let count = 0;
  const result = await autocannon({
    url: `${url}/v2/order/refund`,
    connections: 4,
    overallRate: B_RATE,
    duration: seconds,
    headers: headers(B),
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: JSON.stringify({ ExternalId: `POS-B-${++count}` }) }) }],
  });
  return { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, requests: result.requests.total, non2xx: result.non2xx };
}

/** Everything A may do, at once, until `stop` resolves; how many of each were answered, and refused. */
async function partnerA(url: string, stop: Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = { refunds: 0, refunds429: 0, streams: 0, streams429: 0, exports: 0, exportBytes: 0, exports429: 0, runs: 0, runs429: 0 };
  let running = true;
  void stop.then(() => (running = false));
  const control = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${A.admin}`, 'content-type': 'application/json', ...init.headers } });
  const controllers: AbortController[] = [];
  // Its event streams, and one more.
  for (let i = 0; A_DOES.has('streams') && i <= HOSTED_QUOTAS.eventStreams; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const answer = await control('/_sandbox/events', { signal: controller.signal });
    if (answer.status === 200) {
      counts.streams!++;
      void answer.body!.pipeTo(new WritableStream()).catch(() => undefined);
    } else {
      counts.streams429!++;
      await answer.text();
    }
  }
  // Refunds with bodies the journal keeps whole (15 KB), a little past its rate.
  const refunds = (async () => {
    const body = JSON.stringify({ ExternalId: 'POS-A-1', note: 'x'.repeat(15_000) });
    const head = headers(A);
    while (running && A_DOES.has('refunds')) {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${url}/v2/order/refund`, { method: 'POST', headers: head, body }).then(async (answer) => (await answer.arrayBuffer(), answer.status))));
      for (const status of answers) {
        if (status === 429) counts.refunds429!++;
        else counts.refunds!++;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (Date.now() - started))));
    }
  })();
  // HAR exports one after another, and a second at once now and then.
  const exports = (async () => {
    while (running && A_DOES.has('exports')) {
      const [first, second] = await Promise.all([control('/_sandbox/journal.har'), new Promise((resolve) => setTimeout(resolve, 20)).then(() => control('/_sandbox/journal.har'))]);
      for (const answer of [first, second]) {
        const size = (await answer.arrayBuffer()).byteLength;
        if (answer.status === 200) {
          counts.exports!++;
          counts.exportBytes! += size;
        } else if (answer.status === 429) counts.exports429!++;
      }
    }
  })();
  // Checklist runs against the reference POS, one after another (one at a time: a second is refused 409).
  const runs = (async () => {
    while (running && A_DOES.has('runs')) {
      const started = await control('/_sandbox/checklist/runs', { method: 'POST', body: JSON.stringify({ referencePos: true, capabilities: ['refund', 'hub', 'kiosk'] }) });
      const run = (await started.json()) as { id?: string };
      if (started.status === 429) {
        counts.runs429!++;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (started.status !== 202) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      counts.runs!++;
      const startedAt = Date.now();
      for (let status = 'running'; status === 'running' && running; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const state = (await (await control(`/_sandbox/checklist/runs/${run.id}`)).json()) as { status?: string; outcome?: { verdict: string }; error?: string };
        status = state.status ?? 'running';
        if (status !== 'running') process.stdout.write(`  A's checklist run: ${status}, ${state.outcome?.verdict ?? state.error ?? ''} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
      }
    }
  })();
  await stop;
  await Promise.all([refunds, exports, runs]);
  for (const controller of controllers) controller.abort();
  // A run goes on in the sandbox once asked; the next round alone starts after it.
  for (;;) {
    const listed = (await (await control('/_sandbox/checklist/runs')).json()) as Array<{ id: string; status: string; error?: string }> | { errors: unknown };
    if (Array.isArray(listed) && !listed.some((run) => run.status === 'running')) {
      for (const run of listed.filter((one) => one.status === 'failed' && !told.has(one.id))) {
        told.add(run.id);
        process.stdout.write(`  A's run ${run.id} failed: ${run.error ?? '(no reason given)'}\n`);
      }
    }
    if (!Array.isArray(listed) || !listed.some((run) => run.status === 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return counts;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-hosted-bench-'));
  const file = join(dir, 'partners.json');
  writeFileSync(
    file,
    JSON.stringify({
      operatorToken: OPERATOR,
      partners: [
        // BENCH_A_QUOTAS (JSON): A's quotas other than the defaults, to try one.
        { name: A.name, nonProdKey: A.key, adminToken: A.admin, ...(process.env.BENCH_A_QUOTAS ? { quotas: JSON.parse(process.env.BENCH_A_QUOTAS) as object } : {}) },
        { name: B.name, nonProdKey: B.key, adminToken: B.admin },
      ],
    }),
  );
  const server = await startPinnedServer([join('bin', 'pos-sandbox.js'), 'serve', '--partners', file, '--memory', '--log-level', 'warn', '--report-dir', join(dir, 'reports')]);
  const pid = server.child.pid!;
  try {
    const when = new Date().toISOString();
    process.stdout.write(`hosted quotas, ${when}: B at ${B_RATE} refunds/s, ${ROUNDS} rounds of ${ALONE_S} s alone then ${BESIDE_S} s beside A at its quotas (the defaults)\n`);
    const rows: string[] = [];
    const ratios: number[] = [];
    const a: Record<string, number> = {};
    const row = (label: string, r: Awaited<ReturnType<typeof partnerB>>, rss: number, cpu: number) =>
      `| ${label} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.requests} | ${r.non2xx} | ${rss} | ${Math.round(cpu)} |`;
    // Alternating: the machine's speed moves by itself, and each ratio is of two runs a minute apart.
    for (let round = 1; round <= ROUNDS; round++) {
      const cpuBefore = cpuMs(pid);
      const alone = await partnerB(server.url, ALONE_S);
      rows.push(row(`${round}: alone`, alone, rssMb(pid), (cpuMs(pid) - cpuBefore) / (ALONE_S * 10)));
      let done!: () => void;
      const stop = new Promise<void>((resolve) => (done = resolve));
      const aWork = partnerA(server.url, stop);
      const cpuStart = cpuMs(pid);
      const beside = await partnerB(server.url, BESIDE_S);
      rows.push(row(`${round}: beside A at its quotas`, beside, rssMb(pid), (cpuMs(pid) - cpuStart) / (BESIDE_S * 10)));
      done();
      const counts = await aWork;
      for (const [name, value] of Object.entries(counts)) a[name] = (a[name] ?? 0) + value;
      ratios.push(beside.p99 / Math.max(alone.p99, 0.001));
    }
    const refused = (await (await fetch(`${server.url}/_sandbox/health`, { headers: { authorization: `Bearer ${OPERATOR}` } })).json()) as { partners: Array<{ name: string; quota: { refused: Record<string, number> } }> };
    const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!;
    process.stdout.write(
      [
        '',
        '| round: partner B | p50 ms | p90 ms | p99 ms | max ms | refunds | non-2xx | server RSS MB | server CPU % |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        `B's p99 beside A / alone, each round: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${median.toFixed(2)} (target: within 2)`,
        `A, all rounds: ${a.refunds} refunds answered, ${a.refunds429} refused 429; ${a.streams} event streams, ${a.streams429} refused; ${a.exports} HAR exports (${Math.round(a.exportBytes! / 1024 / 1024)} MB), ${a.exports429} refused; ${a.runs} checklist runs, ${a.runs429} refused 429`,
        `A's refusals by the operator's health: ${JSON.stringify(refused.partners.find((partner) => partner.name === A.name)?.quota.refused)}`,
        '',
      ].join('\n'),
    );
  } finally {
    server.child.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
