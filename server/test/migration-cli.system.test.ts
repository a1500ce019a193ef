/**
 * `pos-sandbox migration` against a real sandbox process: nothing exercised on a fresh one; a half-migrated POS's
 * v1 calls in progress with their journal ids, each opened with `journal show`; the reference POS, taken through a
 * checklist, every step up to the sandbox's done (a demo's report is no certification: the last step is not
 * exercised).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintPosToken } from '../tokens/mint-pos-token.js';
import type { MigrationReport, MigrationStepReport } from '../migration/migration-report.js';
import { PARTNER } from './test-identity.js';
import { cli, referencePos, serve, stopServers } from './processes.js';
import { closedPort } from './live.js';

jest.setTimeout(60_000);
afterEach(stopServers);

/** A report folder of its own: the default one of the clone holds the reports of earlier runs. */
const freshReports = () => mkdtempSync(join(tmpdir(), 'migration-reports-'));
const stateOf = (report: MigrationStepReport[]) => report.map((step) => `${step.number} ${step.state}`);

async function report(sandboxUrl: string): Promise<MigrationStepReport[]> {
  const said = await cli(['migration', '--json'], { SANDBOX_URL: sandboxUrl });
  expect({ code: said.code, stderr: said.stderr }).toEqual({ code: 0, stderr: '' });
  return (JSON.parse(said.stdout) as MigrationReport).steps;
}

describe('pos-sandbox migration', () => {
  it('says nothing is exercised on a fresh sandbox, and prints the seven steps in §9\'s order', async () => {
    const { baseUrl } = await serve(['--report-dir', freshReports()]);
    expect(stateOf(await report(baseUrl))).toEqual(['1 not yet exercised', '2 not yet exercised', '3 not yet exercised', '4 not yet exercised', '5 not yet exercised', '6 not yet exercised', '7 not yet exercised']);
    const lines = (await cli(['migration'], { SANDBOX_URL: baseUrl, NO_COLOR: '1' })).stdout.split('\n').filter((line) => /^\d\. /.test(line));
    expect(lines.map((line) => line.replace(/ +/g, ' '))).toEqual([
      '1. update authentication not yet exercised',
      '2. adjust endpoints not yet exercised',
      '3. refactor payloads not yet exercised',
      '4. handle status management not yet exercised',
      '5. validate menu synchronization not yet exercised',
      '6. test in the sandbox not yet exercised',
      '7. certify and go live not yet exercised',
    ]);
  });

  it("shows a half-migrated POS's v1 calls in progress, each with its journal id and what to change", async () => {
    const { baseUrl } = await serve(['--report-dir', freshReports()]);
    const { token } = mintPosToken({ posName: PARTNER.name, key: PARTNER.nonProdKey, locationId: 'loc-std-001', ttlSeconds: 300, nowSeconds: Math.floor(Date.now() / 1000) });
    const send = async (path: string, headers: Record<string, string>, body: object) => {
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      return response.headers.get('x-sandbox-journal-id')!;
    };
    const retired = await send('/v1/pos/integration/order/UpdateOrderState', {}, {});
    const v1Header = await send('/v2/order/refund', { companyprofileid: 'loc-std-001', 'x-api-key': 'k', 'x-api-version': '2' }, { ExternalId: 'POS-STD-1001' });
    const noKey = await send('/v2/order/refund', { 'x-service-locationid': 'loc-std-001' }, { ExternalId: 'POS-STD-1001' });
    const steps = await report(baseUrl);
    expect(steps.slice(0, 4).map((step) => [step.state, step.v1Calls])).toEqual([
      ['in progress', [retired, noKey]],
      ['in progress', [retired]],
      ['in progress', [v1Header]],
      ['in progress', [retired]],
    ]);
    expect(steps[2]!.next).toContain("header companyprofileid is v1's CompanyProfileId: v2 sends the location in x-service-locationid");

    // Each id the report names opens with journal show: the call, its headers and the sandbox's answer.
    const shown = await cli(['journal', 'show', v1Header], { SANDBOX_URL: baseUrl, NO_COLOR: '1' });
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n')[0]).toMatch(new RegExp(`POST /v2/order/refund  400 .*${v1Header}$`));
    expect(shown.stdout).toContain('"companyprofileid": "loc-std-001"');
    expect(shown.stdout).not.toContain(token.split('.')[2]!);
    const json = JSON.parse((await cli(['journal', 'show', v1Header, '--json'], { SANDBOX_URL: baseUrl })).stdout) as { id: string; response: { status: number } };
    expect([json.id, json.response.status]).toEqual([v1Header, 400]);
    const missing = await cli(['journal', 'show', 'j-999999'], { SANDBOX_URL: baseUrl });
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining("no journal entry 'j-999999'")]);
  });

  it('shows every step up to the sandbox done for the reference POS taken through the checklist', async () => {
    const port = await closedPort();
    const pos = await referencePos(['--sandbox', `http://127.0.0.1:${port}`]);
    const { baseUrl } = await serve(['--port', String(port), '--pos-order-url', `${pos.url}/order`, '--refund-delay-ms', '50', '--report-dir', freshReports()]);
    const run = await cli(['checklist', '--sandbox', baseUrl, '--driver', pos.url, '--only', 'ORDER-02,MENU-01,REFUND-01', '--capabilities', 'refund', '--window-ms', '100']);
    expect(run.code).toBe(0);
    expect(stateOf(await report(baseUrl))).toEqual(['1 done', '2 done', '3 done', '4 done', '5 done', '6 done', '7 not yet exercised']);
  });
});
