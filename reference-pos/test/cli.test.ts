/** `npm run reference-pos` and `pos-sandbox serve --pos-order-url` as real processes, as a user starts them. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { referencePos, serve, stopServers } from '../../server/test/processes.js';
import { PACKAGE_ROOT } from '../../server/version.js';

// Two real processes start per test; with two test files running at once on two cores, 5 s was not always enough.
jest.setTimeout(30_000);
afterEach(stopServers);

describe('npm run reference-pos', () => {
  it('takes the orders of a sandbox started with --pos-order-url, and decides them', async () => {
    const sandbox = await serve(['--pos-order-url', 'http://127.0.0.1:1/order']);
    const pos = await referencePos(['--sandbox', sandbox.baseUrl]);
    expect(pos.output()).toContain('bugs:           none (a correct POS)');
    const created = await fetch(`${sandbox.baseUrl}/_sandbox/orders?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ template: 'kiosk', posOrderUrl: `${pos.url}/order` }),
    });
    const order = (await created.json()) as { OrderId: string; Status: string };
    expect(order.Status).toBe('AWAITING_STATUS');
    let status = order.Status;
    for (let tries = 0; tries < 100 && status !== 'ACCEPTED'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = ((await (await fetch(`${sandbox.baseUrl}/_sandbox/orders/${order.OrderId}`)).json()) as { Status: string }).Status;
    }
    expect(status).toBe('ACCEPTED');
  });

  it('delivers to the URL serve was given, as its banner says', async () => {
    const pos = await referencePos([]);
    const sandbox = await serve(['--pos-order-url', `${pos.url}/order`]);
    expect(sandbox.banner).toContain(`send one:              curl -s -X POST '${sandbox.baseUrl}/_sandbox/orders?wait=true'`);
    const created = await fetch(`${sandbox.baseUrl}/_sandbox/orders?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"template":"standard"}' });
    expect(((await created.json()) as { ExternalId: string }).ExternalId).toMatch(/^REF-/);
  });

  it('refuses an unknown --bug with exit 2, naming the switches', async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, [join(PACKAGE_ROOT, 'bin', 'reference-pos.js'), '--bug', 'typo']).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown --bug 'typo'; the switches are wrong-key, wrong-token-audience,") });
  });
});
