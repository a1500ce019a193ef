/** What both benches share: a server process started from the package, and the headers of a clean refund. */
import { spawn, type ChildProcess } from 'node:child_process';
import { PACKAGE_ROOT } from '../server/version.js';
import { mintPosToken } from '../server/domain/mint-pos-token.js';

export const BENCH_KEY = 'SANDBOX-ONLY-nonprod-key-demo-pos-3f9c2a7e5b1d4c8a9e6f0b2d7a4c1e85';

let nextPort = Number(process.env.BENCH_PORT ?? 0);

/** The port of the next server: 0 (any free one), or BENCH_PORT, BENCH_PORT + 1, … on a machine where ports are shared out. */
export function benchPort(): string {
  return String(nextPort === 0 ? 0 : nextPort++);
}

/** Starts `node ...args` in the package and resolves with the base URL it prints once listening. */
export function startServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: benchPort() } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ url, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
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

/**
 * A clean refund with a new ExternalId every time (`POS-<prefix>-1`, `-2`, …): one ExternalId repeated would draw
 * DUPLICATE_REFUND from the second request on, and the bench would measure the finding path instead.
 */
export function uniqueRefund(prefix: string): { path: string; method: 'POST'; body: () => string } {
  let count = 0;
  return { path: '/v2/order/refund', method: 'POST', body: () => JSON.stringify({ ExternalId: `POS-${prefix}-${++count}` }) };
}
