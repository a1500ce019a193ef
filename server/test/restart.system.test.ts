/** Durability with a real process: a 200 means on disk, and pending refunds finish after a crash. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cli, serve, stopServers } from './processes.js';

jest.setTimeout(60_000);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
});
afterEach(() => {
  stopServers();
  rmSync(dir, { recursive: true, force: true });
});

async function refund(baseUrl: string, externalId: string): Promise<Response> {
  const { stdout: token } = await cli(['token', '--location', 'loc-std-001']);
  return fetch(`${baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token.trim()}`, 'x-service-locationid': 'loc-std-001', 'Content-Type': 'application/json' },
    body: JSON.stringify({ ExternalId: externalId }),
  });
}

async function refunds(baseUrl: string): Promise<Array<{ id: string; status: string; reason?: string }>> {
  return (await (await fetch(`${baseUrl}/_sandbox/refunds`)).json()) as Array<{ id: string; status: string; reason?: string }>;
}

describe('a refund accepted before a SIGKILL', () => {
  it('is on disk when the 200 arrives, is there after a restart, and completes', async () => {
    const data = join(dir, 'db.json');
    const first = await serve(['--data', data, '--refund-delay-ms', '1500']);
    const accepted = await refund(first.baseUrl, 'POS-STD-1001');
    expect(accepted.status).toBe(200);
    const refundId = accepted.headers.get('x-sandbox-refund-id');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const segments = join(dir, 'db.segments');
    const stored = readdirSync(segments).filter((file) => file.startsWith('refunds-'));
    expect(stored).toEqual(['refunds-log-000001.jsonl']);
    const lines = readFileSync(join(segments, stored[0]!), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([expect.objectContaining({ id: refundId, status: 'PENDING' })]);

    const second = await serve(['--data', data, '--refund-delay-ms', '1500']);
    expect((await refunds(second.baseUrl)).map((r) => r.id)).toEqual([refundId]);
    const deadline = Date.now() + 10_000;
    let status = 'PENDING';
    while (status === 'PENDING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await refunds(second.baseUrl))[0]!.status;
    }
    expect(status).toBe('PROCESSED');
    const order = (await (await fetch(`${second.baseUrl}/_sandbox/orders/ord-std-0001`)).json()) as { Status: string };
    expect(order.Status).toBe('REFUNDED');
  });

  it("prints a curl for an order that is still refundable, so a restart's first request is clean too", async () => {
    const data = join(dir, 'db.json');
    const curlOf = (banner: string) => banner.slice(banner.indexOf('curl -i'), banner.indexOf("}'", banner.indexOf('curl -i')) + 2);
    const first = await serve(['--data', data]);
    expect(curlOf(first.banner)).toContain('{"ExternalId":"POS-STD-1001"}');
    expect((await refund(first.baseUrl, 'POS-STD-1001')).status).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await serve(['--data', data]);
    expect(curlOf(second.banner)).toContain('{"ExternalId":"POS-STD-1002"}');
  });

  it('keeps a menu update across a SIGKILL and a restart, and every other item as it was', async () => {
    const data = join(dir, 'db.json');
    const first = await serve(['--data', data]);
    const before = (await (await fetch(`${first.baseUrl}/_sandbox/locations/loc-std-001/menu`)).json()) as { Items: Array<{ Id: string }> };
    const { stdout: token } = await cli(['token', '--location', 'loc-std-001']);
    const update = { LocationId: 'loc-std-001', Items: [{ Id: 'itm-carbonara', Name: 'Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450 }] }] };
    const accepted = await fetch(`${first.baseUrl}/v2/menu`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token.trim()}`, 'x-service-locationid': 'loc-std-001', 'Content-Type': 'application/json' },
      body: JSON.stringify(update),
    });
    expect(accepted.status).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await serve(['--data', data]);
    const after = (await (await fetch(`${second.baseUrl}/_sandbox/locations/loc-std-001/menu`)).json()) as { Items: Array<{ Id: string }> };
    expect(after.Items.find((item) => item.Id === 'itm-carbonara')).toEqual(update.Items[0]);
    expect(after.Items.filter((item) => item.Id !== 'itm-carbonara')).toEqual(before.Items.filter((item) => item.Id !== 'itm-carbonara'));
  });

  it('stops with exit code 2 and a way out when the data file is not JSON', async () => {
    const data = join(dir, 'db.json');
    mkdirSync(join(dir, 'db.segments'));
    writeFileSync(data, '{"schemaVersion":1,');
    const result = await cli(['serve', '--data', data, '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        'pos-sandbox: the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
        `  - ${data}: the JSON is unfinished at the end of the file (19 bytes): the file looks cut short`,
        'To keep its records, repair or restore the files named above.',
        `To start afresh from the fixtures, start with --fresh-state: it moves ${data} and ${join(dir, 'db.segments')} aside (renamed with the time, nothing deleted). Or start with --memory.`,
        '',
      ].join('\n'),
    );
  });
});
