/**
 * npm run bench: how fast the refund and menu endpoints are against bare Express 5 endpoints in the
 * same run, and what building the key once saves per token check. Loopback only; every load is bounded in time.
 */
import type { ChildProcess } from 'node:child_process';
import { createSecretKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import { mintPosToken } from '../server/domain/mint-pos-token.js';
import { BENCH_KEY, refundHeaders, startServer, uniqueRefund } from './bench-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const children: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'pos-sandbox-bench-'));

function verifyCost(): { stringUs: number; keyObjectUs: number } {
  const { token } = mintPosToken({ posName: 'demo-pos', key: BENCH_KEY, locationId: 'loc-std-001', ttlSeconds: 600, nowSeconds: Math.floor(Date.now() / 1000) });
  const keyObject = createSecretKey(Buffer.from(BENCH_KEY));
  const time = (secret: string | typeof keyObject, rounds: number): number => {
    for (let i = 0; i < 200; i++) jwt.verify(token, secret, { algorithms: ['HS256'] });
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) jwt.verify(token, secret, { algorithms: ['HS256'] });
    return Number(process.hrtime.bigint() - start) / 1000 / rounds;
  };
  return { stringUs: time(BENCH_KEY, 2000), keyObjectUs: time(keyObject, 2000) };
}

type Load = { rps: number; p99: number; non2xx: number };

async function load(url: string, request: { path: string; method: 'POST' | 'PUT'; body: () => string }): Promise<Load> {
  const result = await autocannon({
    url: `${url}${request.path}`,
    connections: 10,
    duration: SECONDS,
    headers: refundHeaders(),
    requests: [{ method: request.method, setupRequest: (req) => ({ ...req, body: request.body() }) }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

// A new ExternalId per request (the counter of uniqueRefund): the no-finding path, not DUPLICATE_REFUND.
const refund = (run: string) => uniqueRefund(run);
let price = 1000;
// A new price every time, so every update changes the menu and is stored: the costly case.
const MENU = {
  path: '/v2/menu',
  method: 'PUT',
  body: () =>
    JSON.stringify({ LocationId: 'loc-std-001', Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: price++ }] }] }),
} as const;

function report(title: string, bare: Load, sandbox: Load): void {
  console.log(`\n${title}, 10 connections, ${SECONDS} s each, server and load on one 2-core machine:`);
  console.log(`bare Express 5 (baseline): ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99} ms`);
  console.log(`pos-sandbox serve:         ${sandbox.rps.toFixed(0)} req/s, p99 ${sandbox.p99} ms, non-2xx ${sandbox.non2xx}`);
  console.log(`ratio sandbox / baseline:  ${(sandbox.rps / bare.rps).toFixed(2)}`);
}

try {
  const verify = verifyCost();
  console.log(`jwt.verify, string secret:  ${verify.stringUs.toFixed(1)} µs`);
  console.log(`jwt.verify, KeyObject:      ${verify.keyObjectUs.toFixed(1)} µs  (${(verify.stringUs / verify.keyObjectUs).toFixed(0)}× less)`);

  const bareServer = await startServer([join('bench', 'bare-express.js')]);
  children.push(bareServer.child);
  const sandboxServer = await startServer([join('bin', 'pos-sandbox.js'), 'serve', '--memory', '--log-level', 'warn']);
  children.push(sandboxServer.child);
  report('POST /v2/order/refund (--memory)', await load(bareServer.url, refund('BARE-1')), await load(sandboxServer.url, refund('MEM')));
  report('PUT /v2/menu (form A, one new price per request, --memory)', await load(bareServer.url, MENU), await load(sandboxServer.url, MENU));
  // The data file of a default serve, in a temp folder so the bench leaves no state behind.
  const fileServer = await startServer([join('bin', 'pos-sandbox.js'), 'serve', '--data', join(dataDir, 'db.json'), '--log-level', 'warn']);
  children.push(fileServer.child);
  report('POST /v2/order/refund (data file)', await load(bareServer.url, refund('BARE-2')), await load(fileServer.url, refund('FILE')));
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
