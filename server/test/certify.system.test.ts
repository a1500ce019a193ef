/** `pos-sandbox certify` as a CI job runs it: a real POS process beside it, the report in the folder named, the verdict as exit code. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, referencePos, stopServers } from './processes.js';
import { closedPort } from './live.js';

jest.setTimeout(60_000);
afterEach(stopServers);

const tempDir = () => mkdtempSync(join(tmpdir(), 'pos-sandbox-certify-'));

/** The reference POS, told the port certify's sandbox will take; answers both. */
async function posFor(bugs: string[] = []) {
  const port = await closedPort();
  const pos = await referencePos(['--sandbox', `http://127.0.0.1:${port}`, ...(bugs.length > 0 ? ['--bug', bugs.join(',')] : [])]);
  return { port, pos };
}

describe('pos-sandbox certify', () => {
  it('passes the reference POS: exit 0, the report files in the folder named, a JUnit case per item, none failed', async () => {
    const { port, pos } = await posFor();
    const reports = join(tempDir(), 'build', 'certification');
    const run = await cli(['certify', '--driver', pos.url, '--port', String(port), '--capabilities', 'refund,hub,kiosk', '--report-dir', reports, '--window-ms', '300']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(readdirSync(reports).sort()).toEqual(['evidence.har', 'junit.xml', 'manifest.json', 'report.html', 'report.json', 'report.md', 'signature.jws', 'statement.json', 'statement.jws']);
    expect(run.stdout).toContain(`  junit: ${join(reports, 'junit.xml')}\n`);
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    expect({ cases: junit.match(/<testcase /g)?.length, failures: junit.match(/<failure /g)?.length ?? 0 }).toEqual({ cases: 36, failures: 0 });
  });

  it('exits 1 for a broken POS, with the failure in the JUnit', async () => {
    const { port, pos } = await posFor(['exp-in-ms']);
    const reports = tempDir();
    const run = await cli(['certify', '--driver', pos.url, '--port', String(port), '--only', 'AUTH-06,ORDER-02', '--report-dir', reports, '--window-ms', '300']);
    expect(run.code).toBe(1);
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toMatch(/name="AUTH-06 [^"]*"[^>]*>\s*<failure type="fail"/);
  });

  it('exits 2 within the timeout when the POS is not there, naming its URL and what to do', async () => {
    const driver = `http://127.0.0.1:${await closedPort()}`;
    const reports = join(tempDir(), 'never');
    const began = Date.now();
    const run = await cli(['certify', '--driver', driver, '--port', String(await closedPort()), '--pos-timeout-s', '1', '--report-dir', reports]);
    expect(Date.now() - began).toBeLessThan(10_000);
    expect([run.code, run.stderr]).toEqual([2, `pos-sandbox certify: the POS did not answer GET ${driver}/health within 1 s (last: ECONNREFUSED): start the POS test build first, point --driver at its driver's base URL (the one serving GET /health), or give it longer with --pos-timeout-s\n`]);
    expect(() => readdirSync(reports)).toThrow(/ENOENT/);
  });

  it("says, before it waits, that --pos-name names the report's POS, not the partner whose tokens the sandbox takes", async () => {
    const run = await cli(['certify', '--driver', `http://127.0.0.1:${await closedPort()}`, '--port', String(await closedPort()), '--pos-timeout-s', '1', '--pos-name', 'acme-pos']);
    expect(run.stdout).toContain("  note: the report names the POS 'acme-pos', but the sandbox plays partner 'demo-pos': the POS's tokens must carry iss 'demo-pos' and its key. For your own, set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY\n");
    const own = await cli(['certify', '--driver', `http://127.0.0.1:${await closedPort()}`, '--port', String(await closedPort()), '--pos-timeout-s', '1', '--pos-name', 'acme-pos'], { SANDBOX_PARTNER: 'acme-pos', SANDBOX_NONPROD_KEY: 'acme-own-nonprod-key-for-certify-0001' });
    expect(own.stdout).not.toContain('note:');
    expect(own.stdout).toContain('(in memory, partner acme-pos: the iss of the POS');
  });

  it('exits 2 when its port is taken, saying the POS must call the port it gets', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = await cli(['certify', '--driver', 'http://127.0.0.1:2', '--port', String(port)]);
      expect([run.code, run.stderr]).toEqual([2, `pos-sandbox certify: port ${port} on 127.0.0.1 is in use: stop what listens there, or pass --port (the POS must send its calls to that port)\n`]);
    } finally {
      taken.close();
    }
  });

  it.each([
    [[], "required option '--driver <url>' not specified"],
    [['--driver', 'localhost:4200'], "--driver must be an http(s) URL, got 'localhost:4200'"],
    [['--driver', 'http://127.0.0.1:4200', '--pos-timeout-s', '0'], "--pos-timeout-s must be a whole number of seconds, got '0'"],
    [['--driver', 'http://127.0.0.1:4200', '--port', '70000'], "--port must be a port number from 0 to 65535, got '70000'"],
    [['--driver', 'http://127.0.0.1:4200', '--capabilities', 'refunds'], "unknown capability 'refunds'; the capabilities are refund, hub, kiosk, menu-form-b"],
  ])('refuses the command line %j with exit 2', async (args, message) => {
    const run = await cli(['certify', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
