/** The pos-sandbox command as a user runs it: real processes, a real port, the printed curl run as printed. */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { cli, serve, stopServers } from './processes.js';

const run = promisify(execFile);

/** The reference POS's command line to its end, with the exit code (execFile rejects on a non-zero one). */
async function runReferencePos(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(PACKAGE_ROOT, 'bin', 'reference-pos.js'), ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

jest.setTimeout(60_000);
afterEach(stopServers);

function refund(baseUrl: string, token: string, locationId: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'x-service-locationid': locationId,
      'x-api-key': 'k',
      'x-api-version': '2',
      'Content-Type': 'application/json',
      ...extra,
    },
    body: JSON.stringify({ ExternalId: 'POS-HUB-2001' }),
  });
}

describe('the reference POS command line', () => {
  it('exits 2 on an unknown option, as on a bad value and as pos-sandbox does', async () => {
    const unknown = await runReferencePos(['--nope']);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 2, stderr: "error: unknown option '--nope'\n" });
    expect((await runReferencePos(['--bug', 'nope'])).code).toBe(2);
    expect((await runReferencePos(['--help'])).code).toBe(0);
  });
});

describe('pos-sandbox serve', () => {
  it('prints the base URL, the partner, the labelled key and a curl that performs a valid refund', async () => {
    const { baseUrl, banner } = await serve([]);
    expect(banner).toContain('POS name (token iss):  demo-pos');
    expect(banner).toMatch(/non-prod key: +SANDBOX-ONLY-nonprod-key-demo-pos-\w+\n +SANDBOX ONLY/);
    const curl = banner.slice(banner.indexOf('curl -i'), banner.indexOf("}'", banner.indexOf('curl -i')) + 2);
    expect(curl).toContain(`${baseUrl}/v2/order/refund`);
    const { stdout } = await run('bash', ['-c', `${curl} -s`]);
    expect(stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(stdout).toContain('x-sandbox-findings: 0');
  });

  it('takes SANDBOX_PARTNER, SANDBOX_NONPROD_KEY and SANDBOX_POS_ORDER_URL from the environment', async () => {
    const env = { SANDBOX_PARTNER: 'acme-pos', SANDBOX_NONPROD_KEY: 'acme-own-nonprod-key-for-tests-0001', SANDBOX_POS_ORDER_URL: 'http://127.0.0.1:4999/orders' };
    const { baseUrl, banner } = await serve([], env);
    expect(banner).toContain('POS name (token iss):  acme-pos');
    // The partner's own key is masked: a demo or a shared screen must not show it.
    expect(banner).toContain('non-prod key:          acme…0001');
    expect(banner).not.toContain('acme-own-nonprod-key-for-tests-0001');
    expect((await serve(['--show-key'], env)).banner).toContain('non-prod key:          acme-own-nonprod-key-for-tests-0001');
    expect(banner).toContain('orders to the POS go:  http://127.0.0.1:4999/orders');
    const minted = await cli(['token', '--location', 'loc-hub-001-burgers'], env);
    expect((await refund(baseUrl, minted.stdout.trim(), 'loc-hub-001-burgers')).status).toBe(200);
    const withFixtureKey = await cli(['token', '--location', 'loc-hub-001-burgers', '--partner', 'acme-pos']);
    expect((await refund(baseUrl, withFixtureKey.stdout.trim(), 'loc-hub-001-burgers')).status).toBe(401);
    // Another partner's x-api-key is not the fixture partner's: the banner does not show that one as acme-pos's.
    expect(banner).not.toContain('x-api-key-demo-pos');
    expect(banner).toContain("  -H 'x-api-key: your-x-api-key' \\");
    expect(banner).toContain('  x-api-key:             yours, sent with every call (§5 migration notes); any value is taken, SANDBOX_API_KEY shows it here');
    expect((await serve([], { ...env, SANDBOX_API_KEY: 'acme-x-api-key' })).banner).toContain('  x-api-key:             acme-x-api-key (SANDBOX_API_KEY); sent with every call, any value is taken');
  });

  it('lets --pos-order-url beat SANDBOX_POS_ORDER_URL, and --strict reject findings', async () => {
    const { baseUrl, banner } = await serve(['--strict', '--pos-order-url', 'http://127.0.0.1:5001/pos'], { SANDBOX_POS_ORDER_URL: 'http://127.0.0.1:4999/x' });
    expect(banner).toContain('orders to the POS go:  http://127.0.0.1:5001/pos');
    expect(banner).toContain('mode:                  strict');
    const { stdout: token } = await cli(['token', '--location', 'loc-std-001']);
    const response = await refund(baseUrl, token.trim(), 'loc-kiosk-001');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { errors: Array<{ message: string }> }).errors[0]?.message).toMatch(/^strict mode: SUB_LOCATION_MISMATCH/);
  });

  it('stops with exit code 2 and names the file and JSON path of a broken fixture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
    try {
      cpSync(join(PACKAGE_ROOT, 'fixtures'), dir, { recursive: true });
      writeFileSync(join(dir, 'partner.json'), JSON.stringify({ name: 'demo-pos' }));
      const result = await cli(['serve', '--memory', '--fixtures', dir, '--port', '0']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`pos-sandbox: the fixtures are broken:\n  - ${dir}/partner.json: nonProdKey is required\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with exit code 2 and a hint when the port is taken', async () => {
    const { baseUrl } = await serve([]);
    const result = await cli(['serve', '--memory', '--port', new URL(baseUrl).port]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^pos-sandbox: cannot listen: listen EADDRINUSE.*; pick another --port \(or PORT\) or --host\n$/);
  });

  it('refuses a bad PORT with a message', async () => {
    const result = await cli(['serve', '--memory'], { PORT: 'eighty' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("pos-sandbox: port must be a whole number from 0 to 65535 (0 picks a free one), got 'eighty'\n");
  });
});

describe('pos-sandbox token', () => {
  it('prints a token the running sandbox accepts, with no findings', async () => {
    const { baseUrl } = await serve([]);
    const minted = await cli(['token', '--location', 'loc-hub-001-burgers']);
    expect(minted.code).toBe(0);
    expect(minted.stderr).toBe('');
    const response = await refund(baseUrl, minted.stdout.trim(), 'loc-hub-001-burgers');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sandbox-findings')).toBe('0');
  });

  it('prints the claims with --json, and warns on stderr about an unknown location and a long lifetime', async () => {
    const result = await cli(['token', '--location', 'loc-elsewhere', '--ttl', '7200', '--json']);
    expect(result.code).toBe(0);
    const { claims } = JSON.parse(result.stdout) as { claims: Record<string, unknown> };
    expect(claims).toMatchObject({ sub: 'loc-elsewhere', iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' });
    expect((claims.exp as number) - (claims.nbf as number)).toBe(7200);
    expect(result.stderr).toContain("note: location 'loc-elsewhere' is not in the fixtures");
    expect(result.stderr).toContain('draws the TOKEN_LIFETIME_OVER_1H finding');
  });

  it('refuses a missing --location and a bad --ttl', async () => {
    expect((await cli(['token'])).stderr).toContain("required option '--location <id>' not specified");
    expect((await cli(['token', '--location', 'x', '--ttl', '-5'])).stderr).toContain('must be a whole number of seconds, more than 0');
  });
});

describe('--help', () => {
  it.each([
    ['serve', ['--port', '--host', '--fixtures', '--pos-order-url', '--strict', '--data', '--memory', '--fresh-state', 'SANDBOX_NONPROD_KEY']],
    ['token', ['--location', '--partner', '--ttl', '--json']],
  ])('describes every option of %s', async (command, options) => {
    const result = await cli([command, '--help']);
    expect(result.code).toBe(0);
    for (const option of options) expect(result.stdout).toContain(option);
  });
});

describe('a checkout that was not built', () => {
  // The bins run dist/ (npm run build); a copy of them with no dist/ beside is a clone where the build never ran.
  it.each([
    ['pos-sandbox.js', 'pos-sandbox', 'dist/server/cli.js'],
    ['reference-pos.js', 'reference-pos', 'dist/reference-pos/cli.js'],
  ])('%s exits 1 saying to run npm run build', async (bin, name, entry) => {
    const dir = mkdtempSync(join(tmpdir(), 'unbuilt-'));
    try {
      cpSync(join(PACKAGE_ROOT, 'bin', bin), join(dir, 'bin', bin));
      const result = await run(process.execPath, [join(dir, 'bin', bin), '--help']).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`${name}: ${join(dir, entry)} is missing: run \`npm run build\` in ${dir}/\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
