/** Whole runs over real HTTP: a correct POS passes everything, a silent one is blocked, and the passive and interactive modes. */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { closeServers, listen } from '../../server/test/live.js';
import { buildReport } from '../report/report-model.js';
import { renderReportFiles } from '../report/render-report-files.js';
import { verifyReport } from '../report/verify-report.js';
import { runOutcome } from '../run-outcome.js';
import type { RunResult } from '../runner.js';
import { runAgainst, sandboxAndPos } from './checklist-live.js';

afterEach(closeServers);

const outcomeOf = (run: RunResult) => runOutcome(run.results.map((result) => ({ id: result.item.id, required: result.item.required, status: result.status, message: result.message })));

describe('a checklist run', () => {
  it('passes every item against the correct reference POS, and writes a report that verifies', async () => {
    const run = await runAgainst(await sandboxAndPos());
    expect(run.results.filter((result) => result.status !== 'pass').map((result) => `${result.item.id}: ${result.message}`)).toEqual([]);
    expect(run.results).toHaveLength(34);
    expect(run.lines.filter((line) => line.startsWith('  PASS'))).toHaveLength(34);
    const outcome = outcomeOf(run);
    expect(outcome).toMatchObject({ verdict: 'passed', exitCode: 0 });
    const files = renderReportFiles(buildReport(run, outcome));
    expect(verifyReport(files)).toEqual({ intact: true, problems: [] });
    // Every verdict rests on journal entries, each kept with its digest; MENU-05 passes on what did not arrive.
    const bare = (JSON.parse(files['report.json']) as { items: Array<{ id: string; evidence: unknown[] }> }).items.filter((item) => item.evidence.length === 0);
    expect(bare.map((item) => item.id)).toEqual(['MENU-05']);
  }, 30_000);

  it('marks the items of a POS that answers nothing blocked, never passed, and exits 1', async () => {
    const { sandboxUrl } = await sandboxAndPos();
    const held: IncomingMessage[] = [];
    const silent = await listen((req: IncomingMessage) => void held.push(req));
    const only = ['ORDER-01', 'ORDER-02', 'MENU-01', 'REFUND-01', 'AUTH-01'];
    const run = await runAgainst({ sandboxUrl, posUrl: silent }, { only });
    expect(Object.fromEntries(only.map((id) => [id, run.statusOf(id)]))).toEqual({ 'ORDER-01': 'blocked', 'ORDER-02': 'blocked', 'MENU-01': 'blocked', 'REFUND-01': 'blocked', 'AUTH-01': 'blocked' });
    expect(run.results.find((result) => result.item.id === 'ORDER-01')!.message).toMatch(/^the POS never answered order chk-\w+-01: .+ \(3 tries\)$/);
    expect(run.lines.join('')).toContain("note: the POS driver at " + `${silent}/health accepted the connection but did not answer within 3 s; going on`);
    expect(outcomeOf(run)).toMatchObject({ verdict: 'failed', exitCode: 1 });
  }, 30_000);

  it('judges in passive mode only what the journal holds, and calls the run incomplete', async () => {
    const pair = await sandboxAndPos(['reuse-jti']);
    await runAgainst(pair, { only: ['MENU-08', 'ORDER-05'] });
    const run = await runAgainst(pair, { mode: 'passive' });
    expect(run.statusOf('AUTH-05')).toBe('fail');
    expect(run.statusOf('ORDER-05')).toBe('pass');
    expect(run.statusOf('MENU-04')).toBe('pass');
    expect(run.statusOf('AUTH-10')).toBe('blocked');
    expect(run.results.find((result) => result.item.id === 'ORDER-01')).toMatchObject({ status: 'skipped', message: 'the POS must be made to act for this item: run with --driver or --interactive' });
    expect(outcomeOf(run)).toMatchObject({ verdict: 'failed', exitCode: 1 });
  }, 30_000);

  it('tells a person at the POS what to do with a countdown, and judges what they did', async () => {
    const pair = await sandboxAndPos();
    // The "person" reads the prompt and works the POS (here, its driver endpoint).
    const act = (text: string) => {
      const asked = /refund the order with ExternalId (\S+) at location (\S+)\./.exec(text);
      if (asked) void fetch(`${pair.posUrl}/refund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sandboxUrl: pair.sandboxUrl, locationId: asked[2], externalId: asked[1] }) });
    };
    const run = await runAgainst(pair, { mode: 'interactive', only: ['REFUND-01', 'MENU-01'], live: true, onWrite: act });
    const printed = run.lines.join('');
    expect(printed).toMatch(/>> {5}At the POS: an order is on its way: a standard order for Harbour Street Bistro \(loc-std-001\), reference chk-\w+-01\. ACCEPT it\./);
    expect(printed).toMatch(/\r {9}waiting for the POS: {3}\d s left /);
    expect(run.statusOf('REFUND-01')).toBe('pass');
    // Nobody changed the menu: blocked, not passed.
    expect(run.statusOf('MENU-01')).toBe('blocked');
  }, 30_000);
});
