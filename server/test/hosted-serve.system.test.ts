/**
 * `pos-sandbox serve --partners FILE --store URL` as a real process on a real PostgreSQL: two partners, each with its
 * rows; a graceful stop on SIGTERM; a restart that finds each partner's state where it left it; a second instance
 * that shares the partners with it (rendezvous hashing), sends on the calls of those it follows, and takes the lead
 * of them when their leader dies.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { PARTNER, signHs256, validClaims } from './test-identity.js';
import { cli, serve, serveHosted, stopServers } from './processes.js';
import { RUN_POSTGRES_TESTS, testDatabase } from './postgres.js';
import { instanceIdOf, waitForLeaders } from './leaders.js';
import { ownerOf } from '../hosted/placement.js';

const suite = RUN_POSTGRES_TESTS ? describe : describe.skip;
const ALPHA_KEY = 'alpha-nonprod-key-'.padEnd(40, 'a');
const BETA_KEY = 'beta-nonprod-key-'.padEnd(40, 'b');
const ENV = { TEST_BETA_KEY: BETA_KEY, TEST_OPERATOR: 'operator-token-0000001' };

let dir: string;
let file: string;
let url: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hosted-serve-'));
  file = join(dir, 'partners.json');
  writeFileSync(
    file,
    JSON.stringify({
      operatorToken: { env: 'TEST_OPERATOR' },
      partners: [
        { name: 'alpha-pos', nonProdKey: ALPHA_KEY, adminToken: 'alpha-admin-token-0001' },
        { name: 'beta-pos', nonProdKey: { env: 'TEST_BETA_KEY' }, adminToken: 'beta-admin-token-00001', locations: ['loc-kiosk-001'] },
      ],
    }),
  );
  if (RUN_POSTGRES_TESTS) url = await testDatabase('hosted');
}, 30_000);
afterEach(stopServers);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refund(baseUrl: string, iss: string, key: string, location: string, externalId: string): Promise<number> {
  const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss, sub: location, nbf: Math.floor(Date.now() / 1000) - 5, exp: Math.floor(Date.now() / 1000) + 600 }), key);
  const answer = await fetch(`${baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': location, 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ ExternalId: externalId }),
  });
  return answer.status;
}

/** The fixtures' demo partner: what a single-partner `serve` signs with. */
const DEMO_KEY = PARTNER.nonProdKey;

/** A request with any target, as fetch cannot send: `//host/x` or an absolute URL. */
function rawRequest(port: number, method: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: '127.0.0.1', port, path: target, method, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

const externalIds = async (baseUrl: string, adminToken: string) =>
  ((await (await fetch(`${baseUrl}/_sandbox/refunds`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as Array<{ externalId: string }>).map((one) => one.externalId);

suite('serve --partners --store', () => {
  it("serves each partner from its rows, stops on SIGTERM, and a restart finds each partner's refunds", async () => {
    const first = await serveHosted(['--partners', file, '--store', url], ENV);
    expect(first.banner).toContain('hosting 2 partners');
    expect(first.banner).toContain(`state:          ${url}`);
    for (const secret of [ALPHA_KEY, BETA_KEY, 'alpha-admin-token-0001', 'operator-token-0000001']) expect(first.banner).not.toContain(secret);
    expect(await refund(first.baseUrl, 'alpha-pos', ALPHA_KEY, 'loc-std-001', 'POS-ALPHA-1')).toBe(200);
    expect(await refund(first.baseUrl, 'beta-pos', BETA_KEY, 'loc-kiosk-001', 'POS-BETA-1')).toBe(200);
    expect(await (await fetch(`${first.baseUrl}/_sandbox/ready`)).json()).toEqual({ ready: true });
    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number];
    expect(code).toBe(0);

    const second = await serveHosted(['--partners', file, '--store', url], ENV);
    expect(await externalIds(second.baseUrl, 'alpha-admin-token-0001')).toEqual(['POS-ALPHA-1']);
    // The journal outlived the restart too, and its ids go on from it.
    const journal = (await (await fetch(`${second.baseUrl}/_sandbox/journal?path=/order/refund`, { headers: { authorization: 'Bearer alpha-admin-token-0001' } })).json()) as Array<{ id: string; request: { body?: { ExternalId?: string } } }>;
    expect(journal.map((entry) => entry.request.body?.ExternalId)).toEqual(['POS-ALPHA-1']);
    expect(await externalIds(second.baseUrl, 'beta-admin-token-00001')).toEqual(['POS-BETA-1']);

    // A second instance on the same database: the partners are shared by rendezvous hashing. Beta's leader is the one
    // the hashing names; a call to the other is sent on to it, whose state it is.
    const joined = await serveHosted(['--partners', file, '--store', url], ENV);
    const both = [second, joined];
    const ids = both.map(({ child }) => instanceIdOf(child));
    await waitForLeaders(url, new Map(['alpha-pos', 'beta-pos'].map((partner) => [partner, ownerOf(partner, ids)!])), 15_000);
    const leader = both.find(({ child }) => instanceIdOf(child) === ownerOf('beta-pos', ids))!;
    const follower = both.find((one) => one !== leader)!;
    expect(await refund(follower.baseUrl, 'beta-pos', BETA_KEY, 'loc-kiosk-001', 'POS-BETA-2')).toBe(200);
    expect(await externalIds(leader.baseUrl, 'beta-admin-token-00001')).toEqual(['POS-BETA-2', 'POS-BETA-1']);
    const health = (await (await fetch(`${follower.baseUrl}/_sandbox/health`, { headers: { authorization: 'Bearer operator-token-0000001' } })).json()) as { partners: Array<{ name: string; role: string }> };
    expect(health.partners.find((partner) => partner.name === 'beta-pos')!.role).toBe('follows');
    // A body far past every limit is refused by the follower itself, in the envelope, without sending it on.
    const betaToken = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: 'beta-pos', sub: 'loc-kiosk-001' }), BETA_KEY);
    const huge = await fetch(`${follower.baseUrl}/v2/order/refund`, { method: 'POST', headers: { authorization: `Bearer ${betaToken}` }, body: 'x'.repeat(3 * 1024 * 1024) });
    expect([huge.status, await huge.json()]).toEqual([
      413,
      { errors: [{ code: 'PAYLOAD_TOO_LARGE', message: 'body is larger than 2097152 bytes; the sandbox accepts at most 1 MiB (1048576 bytes)' }] },
    ]);
    // A load balancer's probe is answered by the instance it asks, not forwarded to the leader: with the leader
    // frozen, the follower still answers at once.
    leader.child.kill('SIGSTOP');
    const probe = await fetch(`${follower.baseUrl}/_sandbox/ready`, { signal: AbortSignal.timeout(2000) });
    expect(await probe.json()).toEqual({ ready: true });
    // The leader gone without a goodbye (SIGKILL): the follower takes the lead of its partners, and the state with it.
    leader.child.kill('SIGKILL');
    await once(leader.child, 'exit');
    expect(await refund(follower.baseUrl, 'alpha-pos', ALPHA_KEY, 'loc-std-001', 'POS-ALPHA-2')).toBe(200);
    expect(await externalIds(follower.baseUrl, 'alpha-admin-token-0001')).toEqual(['POS-ALPHA-2', 'POS-ALPHA-1']);
    expect(await externalIds(follower.baseUrl, 'beta-admin-token-00001')).toEqual(['POS-BETA-2', 'POS-BETA-1']);
  }, 30_000);

  it('a follower reaches its leader and nothing else, and no request it sends carries a key a client could use', async () => {
    // The single-partner `serve --store`: no partners file, no admin token; the control API answers loopback only.
    const database = await testDatabase('forwarding');
    const pair = [await serve(['--store', database]), await serve(['--store', database])];
    // Which of the two leads is rendezvous hashing's answer: wait for it, then the other is the follower.
    const ids = pair.map(({ child }) => instanceIdOf(child));
    await waitForLeaders(database, new Map([['demo-pos', ownerOf('demo-pos', ids)!]]), 15_000);
    const leader = pair.find(({ child }) => instanceIdOf(child) === ownerOf('demo-pos', ids))!;
    const follower = pair.find((one) => one !== leader)!;
    let reached = 0;
    const internal = createServer((_req, res) => {
      reached++;
      res.end('an internal service');
    });
    internal.listen(0, '127.0.0.1');
    await once(internal, 'listening');
    const internalPort = (internal.address() as AddressInfo).port;
    try {
      const { port } = new URL(follower.baseUrl);
      for (const target of [`//127.0.0.1:${internalPort}/x`, `http://127.0.0.1:${internalPort}/x`]) {
        for (const method of ['GET', 'POST']) {
          const answer = await rawRequest(Number(port), method, target);
          expect([answer.status, JSON.parse(answer.body)]).toEqual([
            400,
            { errors: [{ code: 'INVALID_REQUEST', message: 'the request target must be a path (origin-form, such as /v2/order/refund): this hosted sandbox does not take an absolute URL or a target starting with //' }] },
          ]);
        }
      }
      expect(reached).toBe(0);
      // A refund through the follower reaches the leader; what the leader received shows no key of the database.
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      const forwardKey = (await client.query<{ forward_key: string }>('SELECT forward_key FROM sandbox_cluster')).rows[0]!.forward_key;
      await client.end();
      expect(await refund(follower.baseUrl, 'demo-pos', DEMO_KEY, 'loc-std-001', 'POS-STD-1001')).toBe(200);
      const entries = (await (await fetch(`${leader.baseUrl}/_sandbox/journal?path=/order/refund`)).json()) as Array<{ request: { headers: Record<string, string> } }>;
      expect(entries[0]!.request.headers).toMatchObject({ 'x-sandbox-forwarded-for': '127.0.0.1', 'x-sandbox-forward-proof': expect.stringMatching(/^\[redacted sha256:/), 'x-sandbox-forwarded-by': expect.stringMatching(/^\[redacted sha256:[0-9a-f]{16}\]$/) });
      expect(JSON.stringify(entries)).not.toContain(forwardKey);
      // The chain of the attack run: the key (had it leaked) and a forwarded-for of loopback no longer make a client
      // a loopback one. Here the client is on loopback, and it still gets the 403 of one from elsewhere.
      const forged = await fetch(`${leader.baseUrl}/_sandbox/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-forwarded-for': '127.0.0.1', 'x-sandbox-forwarded-by': 'x', 'x-sandbox-forward-key': forwardKey },
        body: JSON.stringify({ locationId: 'loc-std-001', ttl: 86400 }),
      });
      expect([forged.status, ((await forged.json()) as { errors: Array<{ code: string }> }).errors[0]!.code]).toEqual([403, 'FORBIDDEN']);
    } finally {
      internal.close();
    }
  }, 30_000);

  it('refuses a partners file with a problem: exit code 2, the problem named, nothing started', async () => {
    const run = await cli(['serve', '--partners', file, '--store', url, '--port', '0'], { TEST_OPERATOR: 'operator-token-0000001' });
    expect([run.code, run.stderr.trim()]).toEqual([2, `pos-sandbox: the partners file ${file} cannot be used:\n  - partners[1].nonProdKey: the environment variable TEST_BETA_KEY is not set`]);
  });
});
