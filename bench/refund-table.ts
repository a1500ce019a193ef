/** Each target on one core, the load from the other, paired with a bare Express 5 run just before it; the median of rounds, since a neighbour's burst moves one round. */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { cpuMs, freePort, refundHeaders, startPinnedServer, uniqueRefund } from './bench-process.js';

export interface Target {
  name: string;
  args: (dataDir: string, port: string) => string[];
  env?: Record<string, string>;
  /** For a server that prints nothing: it is ready once this path answers. */
  silentProbe?: string;
  /** Made before each run: environment for its servers (a fresh database's DATABASE_URL). */
  before?: () => Promise<Record<string, string>>;
  /** How many servers share the target, each started after the one before listens; the load is split over them. */
  instances?: number;
}

/** Where the PostgreSQL targets get a fresh database for each run (a server the bench started). */
export interface BenchDatabase {
  createDatabase(name: string): Promise<string>;
}

export const PRISM_BIN = join(PACKAGE_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export const BARE: Target = { name: 'bare Express 5', args: () => [join('bench', 'bare-express.js')] };

/** Loaded into every server measured: the longest event-loop turn and the GC pauses of the measured seconds. */
const PROBE = pathToFileURL(join(PACKAGE_ROOT, 'bench', 'loop-probe.mjs')).href;

/** openapi.json cut to POST /v2/order/refund and what it reaches: what a team mocking that endpoint would give Prism, whose cost grows with the document. */
export function refundOnlySpec(file: string): string {
  const whole = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'openapi', 'openapi.json'), 'utf8')) as { paths: Record<string, unknown>; components: Record<string, Record<string, unknown>> };
  const paths = { '/v2/order/refund': whole.paths['/v2/order/refund'] };
  const kept: Record<string, Record<string, unknown>> = {};
  const reach = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(reach);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        const ref = key === '$ref' && typeof inner === 'string' ? /^#\/components\/([^/]+)\/(.+)$/.exec(inner) : null;
        if (ref) {
          const [, group, name] = ref as unknown as [string, string, string];
          if (kept[group]?.[name] === undefined) {
            (kept[group] ??= {})[name] = whole.components[group]![name];
            reach(whole.components[group]![name]);
          }
        } else reach(inner);
      }
    }
  };
  reach(paths);
  writeFileSync(file, JSON.stringify({ ...whole, paths, components: kept }));
  return file;
}

/** Prism's mock when installed, the sandbox's two stores, and PostgreSQL with one and two instances when a database could start. */
export function targets(database?: BenchDatabase, scratch?: string): Target[] {
  const list: Target[] = [];
  if (existsSync(PRISM_BIN)) {
    // --errors=false answers every request from the example, as Prism users run it; -v silent, since logging would cost most.
    const prism = (spec: string, port: string) => [PRISM_BIN, 'mock', spec, '--errors=false', '-v', 'silent', '--host', '127.0.0.1', '--port', port];
    list.push({ name: 'Prism 5 mock, silent (openapi/openapi.json)', args: (_dir, port) => prism(join('openapi', 'openapi.json'), port), silentProbe: '/_sandbox/health' });
    if (scratch !== undefined) {
      const spec = refundOnlySpec(join(scratch, 'refund-only.json'));
      // It has no GET to probe: a POST without a body answers (a 4xx) once it listens.
      list.push({ name: 'Prism 5 mock, silent (the refund endpoint alone)', args: (_dir, port) => prism(spec, port), silentProbe: '/v2/order/refund' });
    }
  }
  // Express given what the sandbox's server gives it: how much of the sandbox's lead that is alone.
  list.push({ name: 'bare Express 5, requests born with its prototypes', args: BARE.args, env: { BARE_EXPRESS_BORN: '1' } });
  list.push({ name: 'pos-sandbox serve --memory', args: () => [join('bin', 'pos-sandbox.js'), 'serve', '--memory', '--log-level', 'warn'] });
  list.push({ name: 'pos-sandbox serve (data file, the default)', args: (dir) => [join('bin', 'pos-sandbox.js'), 'serve', '--data', join(dir, 'db.json'), '--log-level', 'warn'] });
  if (database) {
    let made = 0;
    const fresh = async () => ({ DATABASE_URL: await database.createDatabase(`bench_${++made}`) });
    const store = () => [join('bin', 'pos-sandbox.js'), 'serve', '--store', '--log-level', 'warn'];
    list.push({ name: 'pos-sandbox serve --store (PostgreSQL, 1 instance)', args: store, before: fresh });
    list.push({ name: 'pos-sandbox serve --store (PostgreSQL, 2 instances, load split)', args: store, before: fresh, instances: 2 });
  }
  return list;
}

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  /** Server CPU (user + system) per answered request, µs. */
  cpuUs: number;
  /** From the server's own probe (loop-probe.mjs) over the measured seconds: its longest event-loop turn, and GC pauses per 10 s. */
  longestTurnMs?: number;
  /** How long the server's own thread ran in its longest turn (Linux): the rest of the turn it waited for the core. */
  longestTurnRanMs?: number;
  gcMsPer10s?: number;
  majorGcMsPer10s?: number;
  longestGcMs?: number;
}

interface ProbeReading {
  seconds: number;
  longestTurnMs: number;
  longestTurnRanMs?: number;
  gcMs: number;
  gcMajorMs: number;
  gcLongestMs: number;
}

/** Asks a server's probe for what it saw since it was last asked, and waits for the answer (at most 5 s). */
async function readProbe(pid: number, file: string): Promise<ProbeReading | undefined> {
  const before = existsSync(file) ? statSync(file).mtimeMs : 0;
  process.kill(pid, 'SIGUSR2');
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (existsSync(file) && statSync(file).mtimeMs !== before) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as ProbeReading;
      } catch {
        // Read while it was being written: once more.
      }
    }
  }
  return undefined;
}

/** Warm-up, then `seconds` of refunds at 50 connections; the server's CPU counted over the measured part only. */
export async function refundLoad(url: string, pid: number, seconds: number, run: string, probeFile?: string): Promise<LoadResult> {
  const request = uniqueRefund(run);
  const fire = (duration: number) =>
    autocannon({ url: `${url}${request.path}`, connections: 50, duration, headers: refundHeaders(), requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: request.body() }) }] });
  await fire(3);
  if (probeFile !== undefined) await readProbe(pid, probeFile);
  const before = cpuMs(pid);
  const result = await fire(seconds);
  const spent = cpuMs(pid) - before;
  const probe = probeFile === undefined ? undefined : await readProbe(pid, probeFile);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuUs: (spent * 1000) / Math.max(1, result.requests.total),
    ...(probe === undefined ? {} : { longestTurnMs: probe.longestTurnMs, longestTurnRanMs: probe.longestTurnRanMs, gcMsPer10s: (probe.gcMs * 10) / probe.seconds, majorGcMsPer10s: (probe.gcMajorMs * 10) / probe.seconds, longestGcMs: probe.gcLongestMs }),
  };
}

export interface TableRow {
  name: string;
  rps: number;
  p99: number;
  cpuUs: number;
  ratio: number;
  /** The target's p99 over its bare Express pair's, the median of the rounds. */
  p99Ratio: number;
  longestTurnMs?: number;
  /** The server thread's run time in the longest turn of the round whose longest turn is the median. */
  longestTurnRanMs?: number;
  gcMsPer10s?: number;
  majorGcMsPer10s?: number;
  non2xx: number;
  /** This target's bare Express pair, for the baseline row. */
  bare: LoadResult;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The server thread's run time in the longest turn of the round whose longest turn is the median one. */
function ranInMedianTurn(results: LoadResult[]): { longestTurnRanMs?: number } {
  const turn = median(results.map((result) => result.longestTurnMs!));
  const ran = results.find((result) => result.longestTurnMs === turn)?.longestTurnRanMs;
  return ran === undefined ? {} : { longestTurnRanMs: ran };
}

/** Every target, `rounds` times, each after its own fresh bare Express run. */
export async function refundTable(
  dataDir: (round: number, target: number) => string,
  seconds: number,
  rounds: number,
  progress: (line: string) => void,
  database?: BenchDatabase,
  scratch?: string,
  /** Only the targets whose name holds one of these words (all when empty). */
  only: string[] = [],
): Promise<TableRow[]> {
  const runs = new Map<string, Array<{ bare: LoadResult; target: LoadResult }>>();
  const all = targets(database, scratch).filter((target) => only.length === 0 || only.some((word) => target.name.includes(word)));
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of all.entries()) {
      const bare = await measure(BARE, '', seconds, `B${round}${index}`, scratch);
      const result = await measure(target, dataDir(round, index), seconds, `T${round}${index}`, scratch);
      runs.set(target.name, [...(runs.get(target.name) ?? []), { bare, target: result }]);
      const ran = result.longestTurnRanMs === undefined ? '' : ` (the server's thread ran ${result.longestTurnRanMs.toFixed(1)} ms of it)`;
      const loop = result.longestTurnMs === undefined ? '' : `, longest turn ${result.longestTurnMs.toFixed(1)} ms${ran}, GC ${result.gcMsPer10s!.toFixed(0)} ms/10 s (mark-compact ${result.majorGcMsPer10s!.toFixed(0)}, longest pause ${result.longestGcMs!.toFixed(1)})`;
      progress(`  round ${round + 1}, ${target.name}: ${result.rps.toFixed(0)} req/s (bare ${bare.rps.toFixed(0)}, ${(result.rps / bare.rps).toFixed(2)}×), p99 ${result.p99} ms (bare ${bare.p99})${loop}, non-2xx ${result.non2xx}`);
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
      p99Ratio: median(pairs.map((pair) => pair.target.p99 / Math.max(1, pair.bare.p99))),
      ...(pairs.every((pair) => pair.target.longestTurnMs !== undefined)
        ? {
            longestTurnMs: median(pairs.map((pair) => pair.target.longestTurnMs!)),
            ...ranInMedianTurn(pairs.map((pair) => pair.target)),
            gcMsPer10s: median(pairs.map((pair) => pair.target.gcMsPer10s!)),
            majorGcMsPer10s: median(pairs.map((pair) => pair.target.majorGcMsPer10s!)),
          }
        : {}),
      non2xx: pairs.reduce((sum, pair) => sum + pair.target.non2xx, 0),
      bare: {
        rps: median(pairs.map((pair) => pair.bare.rps)),
        p99: median(pairs.map((pair) => pair.bare.p99)),
        cpuUs: median(pairs.map((pair) => pair.bare.cpuUs)),
        non2xx: 0,
        ...(pairs.every((pair) => pair.bare.longestTurnMs !== undefined)
          ? {
              longestTurnMs: median(pairs.map((pair) => pair.bare.longestTurnMs!)),
              ...ranInMedianTurn(pairs.map((pair) => pair.bare)),
              gcMsPer10s: median(pairs.map((pair) => pair.bare.gcMsPer10s!)),
              majorGcMsPer10s: median(pairs.map((pair) => pair.bare.majorGcMsPer10s!)),
            }
          : {}),
      },
    };
  });
}

async function measure(target: Target, dataDir: string, seconds: number, run: string, scratch?: string): Promise<LoadResult> {
  const env = { ...target.env, ...(await target.before?.()) };
  const servers: Array<{ url: string; child: ChildProcess }> = [];
  // One server: its loop and GC probed (loop-probe.mjs); the split load is measured without.
  const probeFile = scratch !== undefined && (target.instances ?? 1) === 1 ? join(scratch, `probe-${run}.json`) : undefined;
  try {
    for (let n = 0; n < (target.instances ?? 1); n++) {
      const port = await freePort();
      const probe = target.silentProbe === undefined ? undefined : `http://127.0.0.1:${port}${target.silentProbe}`;
      const args = probeFile === undefined ? target.args(dataDir, port) : ['--import', PROBE, ...target.args(dataDir, port)];
      servers.push(await startPinnedServer(args, { ...env, PORT: port, ...(probeFile === undefined ? {} : { BENCH_PROBE_FILE: probeFile }) }, probe));
    }
    if (servers.length === 1) return await refundLoad(servers[0]!.url, servers[0]!.child.pid!, seconds, run, probeFile);
    return await splitLoad(servers, seconds, run);
  } finally {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.child.exitCode !== null ? resolve(undefined) : server.child.once('exit', resolve)))));
  }
}

/** The 50 connections split evenly over the servers, all at once; their CPU and their answers added up. */
async function splitLoad(servers: Array<{ url: string; child: ChildProcess }>, seconds: number, run: string): Promise<LoadResult> {
  const connections = Math.floor(50 / servers.length);
  const fire = (duration: number) =>
    Promise.all(
      servers.map((server, n) => {
        const request = uniqueRefund(`${run}-${n}`);
        return autocannon({ url: `${server.url}${request.path}`, connections, duration, headers: refundHeaders(), requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: request.body() }) }] });
      }),
    );
  await fire(3);
  const cpu = () => servers.reduce((sum, server) => sum + cpuMs(server.child.pid!), 0);
  const before = cpu();
  const results = await fire(seconds);
  const spent = cpu() - before;
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  return {
    rps: results.reduce((sum, result) => sum + result.requests.average, 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    cpuUs: (spent * 1000) / Math.max(1, total),
  };
}

/** `npm run bench:refunds`: this table alone, no PostgreSQL; BENCH_TARGETS (words, by commas) keeps the targets whose name holds one. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { pinLoadGenerator } = await import('./bench-process.js');
  pinLoadGenerator();
  const scratch = mkdtempSync(join(tmpdir(), 'pos-sandbox-refunds-'));
  try {
    const rows = await refundTable((round, target) => join(scratch, `table-${round}-${target}`, 'db.json'), Number(process.env.BENCH_SECONDS ?? 10), Number(process.env.BENCH_ROUNDS ?? 3), (line) => console.log(line), undefined, scratch, (process.env.BENCH_TARGETS ?? '').split(',').map((word) => word.trim()).filter(Boolean));
    for (const row of rows) console.log(`${row.name}: ${row.rps.toFixed(0)} req/s, ${row.ratio.toFixed(2)}× bare, p99 ${row.p99} ms (${row.p99Ratio.toFixed(1)}× bare), ${row.cpuUs.toFixed(0)} µs/request, longest turn ${row.longestTurnMs?.toFixed(1) ?? '–'} ms`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
