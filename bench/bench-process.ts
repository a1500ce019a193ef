/** What both benches share: a server process started from the package, and the headers of a clean refund. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { PACKAGE_ROOT } from '../server/version.js';
import { mintPosToken } from '../server/tokens/mint-pos-token.js';

export const BENCH_KEY = 'SANDBOX-ONLY-nonprod-key-demo-pos-3f9c2a7e5b1d4c8a9e6f0b2d7a4c1e85';

let nextPort = Number(process.env.BENCH_PORT ?? 0);

/** The port of the next server: 0 (any free one), or BENCH_PORT, BENCH_PORT + 1, … on a machine where ports are shared out. */
export function benchPort(): string {
  return String(nextPort === 0 ? 0 : nextPort++);
}

/** Resolves with the base URL the server prints once listening; `pin` runs it on SERVER_CORE. */
export function startServer(args: string[], options: { pin?: boolean; env?: Record<string, string>; silentOn?: string } = {}): Promise<{ url: string; child: ChildProcess }> {
  if (options.silentOn !== undefined) return startSilentServer(args, options.silentOn, options);
  // BENCH_NODE_FLAGS: node or V8 flags for the servers, to try one (`--max-semi-space-size=2`) without changing the package.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const [command, argv] = options.pin ? ['taskset', ['-c', SERVER_CORE, process.execPath, ...flags, ...args]] : [process.execPath, [...flags, ...args]];
  const child = spawn(command, argv, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: benchPort(), ...options.env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/[^\s/]+)/i.exec(out)?.[1];
      if (url) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ url, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** A server that prints nothing (Prism with `-v silent`): ready once `url` answers anything; resolves with its origin. */
async function startSilentServer(args: string[], url: string, options: { pin?: boolean; env?: Record<string, string> }): Promise<{ url: string; child: ChildProcess }> {
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const [command, argv] = options.pin ? ['taskset', ['-c', SERVER_CORE, process.execPath, ...flags, ...args]] : [process.execPath, [...flags, ...args]];
  const child = spawn(command, argv, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...options.env } });
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    if (await fetch(url).then(() => true, () => false)) return { url: new URL(url).origin, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not answer at ${url} within 60 s`);
}

/** The headers of a refund that draws no finding, with a one-hour token for loc-std-001. */
export function refundHeaders(): Record<string, string> {
  const { token } = mintPosToken({ posName: 'demo-pos', key: BENCH_KEY, locationId: 'loc-std-001', ttlSeconds: 3600, nowSeconds: Math.floor(Date.now() / 1000) });
  return {
    authorization: `Bearer ${token}`,
    'x-service-locationid': 'loc-std-001',
    'x-api-key': 'k',
    'x-api-version': '2',
    'content-type': 'application/json',
  };
}

/** A new ExternalId each time: a repeated one draws DUPLICATE_REFUND, and the bench would measure the finding path. */
export function uniqueRefund(prefix: string): { path: string; method: 'POST'; body: () => string } {
  let count = 0;
  return { path: '/v2/order/refund', method: 'POST', body: () => JSON.stringify({ ExternalId: `POS-${prefix}-${++count}` }) };
}

/** Linux clock ticks a second (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

/** User + system CPU of a process in milliseconds, from fields 14 and 15 of /proc/<pid>/stat (Linux only). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The resident set of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) / 1024;
}

/** Servers on one core and the load on the other, so a figure does not depend on how the two share the cores (taskset). */
export const SERVER_CORE = '0';
export const LOAD_CORE = '1';

/** Pins this process (the load generator) to LOAD_CORE. */
export function pinLoadGenerator(): void {
  execFileSync('taskset', ['-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
}

/** Starts `node ...args` on SERVER_CORE, resolving with its URL once it prints the line it listens with. */
export function startPinnedServer(args: string[], env: Record<string, string> = {}, silentOn?: string): Promise<{ url: string; child: ChildProcess }> {
  return startServer(args, { pin: true, env, silentOn });
}

/** BENCH_PORT's next port when set, else a port the system says is free now (Prism cannot be given 0). */
export async function freePort(): Promise<string> {
  const chosen = benchPort();
  if (chosen !== '0') return chosen;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return String(port);
}
