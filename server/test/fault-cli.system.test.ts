/** `pos-sandbox serve --faults FILE` as a user runs it: real processes, the ready scripts of fixtures/faults. */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { cli, serve, stopServers } from './processes.js';

jest.setTimeout(60_000);
afterEach(stopServers);

const READY = join(PACKAGE_ROOT, 'fixtures', 'faults');

async function refundStatus(baseUrl: string): Promise<number> {
  const { stdout: token } = await cli(['token', '--location', 'loc-std-001']);
  const response = await fetch(`${baseUrl}/v2/order/refund`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token.trim()}`, 'x-service-locationid': 'loc-std-001', 'Content-Type': 'application/json' },
    body: JSON.stringify({ ExternalId: 'POS-STD-1001' }),
  });
  return response.status;
}

describe('pos-sandbox serve --faults', () => {
  it('starts with a ready script, says so in the banner, and the rules act at once', async () => {
    const file = join(READY, 'service-outage.json');
    const { baseUrl, banner } = await serve(['--faults', file]);
    expect(banner).toContain(`fault rules:           1 rule from ${file} (GET /_sandbox/faults shows what each has left)`);
    expect(await refundStatus(baseUrl)).toBe(503);
    const rules = (await (await fetch(`${baseUrl}/_sandbox/faults`)).json()) as Array<Record<string, unknown>>;
    expect(rules).toEqual([expect.objectContaining({ id: 'outage', source: 'file', fired: 1, left: 5 })]);
  });

  it('stops with exit code 2 and every problem of a bad file, each with its JSON path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faults-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify([{ action: { kind: 'status', status: 200 } }, { match: { path: 'menu' }, action: { kind: 'duplicate' } }]));
      const result = await cli(['serve', '--memory', '--port', '0', '--faults', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        [
          `pos-sandbox: --faults ${file} is not a valid list of fault rules:`,
          '  - [0].action.status must be from 400 to 599 for kind status, got 200: an injected 2xx would claim work that was not done',
          '  - [1].match.path must match ^/, got string "menu"',
          '  - [1].action.kind duplicate applies to orders the sandbox sends: set match.direction to "outbound"',
          '',
        ].join('\n'),
      );
      writeFileSync(file, '[{"action": ');
      const notJson = await cli(['serve', '--memory', '--port', '0', '--faults', file]);
      expect(notJson.code).toBe(2);
      expect(notJson.stderr).toMatch(new RegExp(`^pos-sandbox: --faults ${file}: not JSON \\(.+\\); it must be a JSON list of fault rules, like the ready scripts in fixtures/faults/\\n$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the ready scripts when the file is not there', async () => {
    const result = await cli(['serve', '--memory', '--port', '0', '--faults', 'outage.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pos-sandbox: --faults outage.json: no such file; ready scripts are in ');
    expect(result.stderr).toContain('service-outage.json');
  });

  it('stops on SIGINT even while a call is held by a hang fault', async () => {
    const { baseUrl, child } = await serve([]);
    const held = httpRequest(`${baseUrl}/v2/order/refund`, { method: 'POST', headers: { 'x-sandbox-fault': 'hang' } });
    held.on('error', () => undefined);
    held.end('{}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});
