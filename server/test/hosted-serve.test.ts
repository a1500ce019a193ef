/**
 * `pos-sandbox serve --partners FILE --store URL` as a real process on a real PostgreSQL: two partners, each with its
 * rows; a graceful stop on SIGTERM; a restart that finds each partner's state where it left it.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { signHs256, validClaims } from './helpers.js';
import { cli, serveHosted, stopServers } from './processes.js';
import { RUN_POSTGRES_TESTS, testDatabase } from './postgres.js';

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
    expect(await (await fetch(`${first.baseUrl}/_sandbox/ready`)).json()).toEqual({ ready: true, instanceId: expect.any(String) });
    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number];
    expect(code).toBe(0);

    const second = await serveHosted(['--partners', file, '--store', url], ENV);
    expect(await externalIds(second.baseUrl, 'alpha-admin-token-0001')).toEqual(['POS-ALPHA-1']);
    expect(await externalIds(second.baseUrl, 'beta-admin-token-00001')).toEqual(['POS-BETA-1']);

    // A second instance on the same partners' rows is refused, naming the one that holds them; a single-partner
    // sandbox of one of them too.
    const refused = await cli(['serve', '--partners', file, '--store', url, '--port', '0'], ENV);
    expect([refused.code, refused.stderr.trim()]).toEqual([
      2,
      expect.stringMatching(/^pos-sandbox: another pos-sandbox instance \(.+-\d+\) serves partner 'alpha-pos' on postgres:\/\/.+: one instance per partner's state, since each keeps that state in memory; stop it first \(docs\/hosting\.md\)$/),
    ]);
    const single = await cli(['serve', '--store', url, '--port', '0'], { SANDBOX_PARTNER: 'beta-pos', SANDBOX_NONPROD_KEY: BETA_KEY });
    expect(single.code).toBe(2);
    expect(single.stderr).toContain("serves partner 'beta-pos'");
    // Once the holder is gone (SIGKILL: no goodbye to the database), the lock goes with its connection.
    second.child.kill('SIGKILL');
    await once(second.child, 'exit');
    const third = await serveHosted(['--partners', file, '--store', url], ENV);
    expect(await externalIds(third.baseUrl, 'beta-admin-token-00001')).toEqual(['POS-BETA-1']);
  }, 30_000);

  it('refuses a partners file with a problem: exit code 2, the problem named, nothing started', async () => {
    const run = await cli(['serve', '--partners', file, '--store', url, '--port', '0'], { TEST_OPERATOR: 'operator-token-0000001' });
    expect([run.code, run.stderr.trim()]).toEqual([2, `pos-sandbox: the partners file ${file} cannot be used:\n  - partners[1].nonProdKey: the environment variable TEST_BETA_KEY is not set`]);
  });
});
