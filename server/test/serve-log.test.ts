/**
 * What `serve` prints per request in a terminal: one line (method, path, status, duration, location, findings,
 * request id), then one warning per finding; coloured only when colour is wanted (FORCE_COLOR), never with NO_COLOR.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mintPosToken } from '../tokens/mint-pos-token.js';
import { PARTNER } from './test-identity.js';
import { serve, stopServers } from './processes.js';

interface Started {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
}

async function pretty(env: Record<string, string>): Promise<Started> {
  const started = await serve(['--log-format', 'pretty'], env);
  let out = '';
  started.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { baseUrl: started.baseUrl, child: started.child, output: () => out };
}

/** Sends a refund with one finding (no x-api-key) and resolves with what the sandbox printed for it. */
async function refundWithAFinding(sandbox: Started): Promise<string[]> {
  const { token } = mintPosToken({ posName: PARTNER.name, key: PARTNER.nonProdKey, locationId: 'loc-std-001', ttlSeconds: 600, nowSeconds: Math.floor(Date.now() / 1000) });
  const response = await fetch(`${sandbox.baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ ExternalId: 'POS-STD-1001' }),
  });
  await response.arrayBuffer();
  const requestId = response.headers.get('x-request-id')!;
  // The pretty printer runs in a worker: wait for its lines, not for a time.
  await new Promise<void>((resolve) => {
    const check = () => (sandbox.output().split(requestId).length > 2 ? resolve() : sandbox.child.stdout!.once('data', check));
    check();
  });
  return sandbox.output().split('\n').filter((line) => line.includes(requestId));
}

let plain: Started;
let coloured: Started;

beforeAll(async () => {
  [plain, coloured] = await Promise.all([pretty({ NO_COLOR: '1', FORCE_COLOR: '1' }), pretty({ FORCE_COLOR: '1' })]);
});

afterAll(stopServers);

describe('serve --log-format pretty', () => {
  it('prints one line per request, then the finding it drew, with no colour under NO_COLOR', async () => {
    const lines = await refundWithAFinding(plain);
    // eslint-disable-next-line no-control-regex
    expect(lines.some((line) => /\u001b\[/.test(line))).toBe(false);
    expect(lines.map((line) => line.replace(/^\[\d\d:\d\d:\d\d\.\d{3}\]/, '[T]').replace(/ \d+ ms /, ' N ms ').replace(/[0-9a-f-]{36}/, 'ID'))).toEqual([
      '[T] INFO: POST /v2/order/refund → 200 N ms loc-std-001 findings: 1 ID',
      '[T] WARN: finding: header x-api-key is missing; the v2 migration notes say every request carries it ID {"code":"API_KEY_HEADER_MISSING","section":"§5 migration notes"}',
    ]);
  });

  it('colours its lines when colour is asked for (FORCE_COLOR) and not refused', async () => {
    const lines = await refundWithAFinding(coloured);
    // eslint-disable-next-line no-control-regex
    expect(lines.every((line) => /\u001b\[\d+m/.test(line))).toBe(true);
    expect(lines).toHaveLength(2);
  });
});
