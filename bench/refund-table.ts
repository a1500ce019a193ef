/**
 * The side-by-side refund table: each target served on one core, the load from the other, 50 connections; every
 * target paired with a fresh bare Express 5 run just before it, so each ratio compares two runs of the same minute.
 * Rounds are repeated and the median kept: a neighbour's burst on a shared machine moves one round, not three.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { cpuMs, freePort, refundHeaders, startPinnedServer, uniqueRefund } from './bench-process.js';

export interface Target {
  name: string;
  args: (dataDir: string, port: string) => string[];
  env?: Record<string, string>;
  /** For a server that prints nothing: it is ready once this path answers. */
  silentProbe?: string;
}

export const PRISM_BIN = join(PACKAGE_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export const BARE: Target = { name: 'bare Express 5', args: () => [join('bench', 'bare-express.js')] };

/** What is compared with bare Express: Prism's mock when installed (a dev dependency), then the sandbox's two stores. */
export function targets(): Target[] {
  const list: Target[] = [];
  if (existsSync(PRISM_BIN)) {
    // --errors=false: a mock that answers every request from the document's example, as Prism users run it;
    // -v silent: its log line per request would be the largest cost of the comparison.
    list.push({
      name: 'Prism 5 mock, silent (openapi/openapi.json)',
      args: (_dir, port) => [PRISM_BIN, 'mock', join('openapi', 'openapi.json'), '--errors=false', '-v', 'silent', '--host', '127.0.0.1', '--port', port],
      silentProbe: '/_sandbox/health',
    });
  }
  list.push({ name: 'pos-sandbox serve --memory', args: () => [join('bin', 'pos-sandbox.js'), 'serve', '--memory', '--log-level', 'warn'] });
  list.push({ name: 'pos-sandbox serve (data file, the default)', args: (dir) => [join('bin', 'pos-sandbox.js'), 'serve', '--data', join(dir, 'db.json'), '--log-level', 'warn'] });
  return list;
}

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  /** Server CPU (user + system) per answered request, µs. */
  cpuUs: number;
}

/** Warm-up, then `seconds` of refunds at 50 connections; the server's CPU counted over the measured part only. */
export async function refundLoad(url: string, pid: number, seconds: number, run: string): Promise<LoadResult> {
  const request = uniqueRefund(run);
  const fire = (duration: number) =>
    autocannon({ url: `${url}${request.path}`, connections: 50, duration, headers: refundHeaders(), requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: request.body() }) }] });
  await fire(3);
  const before = cpuMs(pid);
  const result = await fire(seconds);
  const spent = cpuMs(pid) - before;
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, cpuUs: (spent * 1000) / Math.max(1, result.requests.total) };
}

export interface TableRow {
  name: string;
  rps: number;
  p99: number;
  cpuUs: number;
  ratio: number;
  non2xx: number;
  /** This target's bare Express pair, for the baseline row. */
  bare: LoadResult;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Every target, `rounds` times, each after its own fresh bare Express run. */
export async function refundTable(dataDir: (round: number, target: number) => string, seconds: number, rounds: number, progress: (line: string) => void): Promise<TableRow[]> {
  const runs = new Map<string, Array<{ bare: LoadResult; target: LoadResult }>>();
  const all = targets();
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of all.entries()) {
      const bare = await measure(BARE, '', seconds, `B${round}${index}`);
      const result = await measure(target, dataDir(round, index), seconds, `T${round}${index}`);
      runs.set(target.name, [...(runs.get(target.name) ?? []), { bare, target: result }]);
      progress(`  round ${round + 1}, ${target.name}: ${result.rps.toFixed(0)} req/s (bare ${bare.rps.toFixed(0)}), p99 ${result.p99} ms, non-2xx ${result.non2xx}`);
    }
  }
  return all.map(({ name }) => {
    const pairs = runs.get(name)!;
    return {
      name,
      rps: median(pairs.map((pair) => pair.target.rps)),
      p99: median(pairs.map((pair) => pair.target.p99)),
      cpuUs: median(pairs.map((pair) => pair.target.cpuUs)),
      ratio: median(pairs.map((pair) => pair.target.rps / pair.bare.rps)),
      non2xx: pairs.reduce((sum, pair) => sum + pair.target.non2xx, 0),
      bare: {
        rps: median(pairs.map((pair) => pair.bare.rps)),
        p99: median(pairs.map((pair) => pair.bare.p99)),
        cpuUs: median(pairs.map((pair) => pair.bare.cpuUs)),
        non2xx: 0,
      },
    };
  });
}

async function measure(target: Target, dataDir: string, seconds: number, run: string): Promise<LoadResult> {
  const port = await freePort();
  const probe = target.silentProbe === undefined ? undefined : `http://127.0.0.1:${port}${target.silentProbe}`;
  const server = await startPinnedServer(target.args(dataDir, port), { ...target.env, PORT: port }, probe);
  try {
    return await refundLoad(server.url, server.child.pid!, seconds, run);
  } finally {
    server.child.kill('SIGKILL');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve(undefined) : server.child.once('exit', resolve)));
  }
}
