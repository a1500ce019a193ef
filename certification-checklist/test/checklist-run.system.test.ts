/** Whole runs over real HTTP: a correct POS passes everything, a silent one is blocked, and the passive and interactive modes. */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeServers, listen } from '../../server/test/live.js';
import { buildReport } from '../report/report-model.js';
import { renderReportFiles } from '../report/render-report-files.js';
import { signedFolderFiles } from '../report/write-report.js';
import { TEST_SIGNER } from './test-signer.js';
import { verifyReport } from '../report/verify-report.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { rejudgeReport } from '../report/rejudge.js';
import { DEFAULT_START_WAIT_MS, runChecklist, silentNote, type RunResult } from '../runner.js';
import { createReferencePos } from '../../reference-pos/app.js';
import { fixtures, PARTNER } from '../../server/test/helpers.js';
import { quickSandbox, runAgainst, sandboxAndPos } from './checklist-live.js';
import { expectKnockOnsRooted } from './checklist-live.js';

afterEach(closeServers);

const outcomeOf = (run: RunResult) => runOutcome(judgedItems(run.results));

/**
 * A server that passes every request on to `target` and its answer back, as they are. `gate` runs before the answer
 * is sent on (with its text), or, with `when` 'before', before the request is.
 */
async function forwardTo(target: string, gate: (req: IncomingMessage, text: string) => Promise<void>, when: 'before' | 'after' = 'after'): Promise<string> {
  return listen(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (when === 'before') await gate(req, '');
    const headers = Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as Array<[string, string]>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    const text = await answer.text();
    if (when === 'after') await gate(req, text);
    const answerHeaders = Object.fromEntries([...answer.headers.entries()].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)));
    res.writeHead(answer.status, answerHeaders);
    res.end(text);
  });
}

describe('a checklist run', () => {
  it('passes every item against the correct reference POS, calls it a demo, and writes a report that verifies and rejudges', async () => {
    const run = await runAgainst(await sandboxAndPos());
    expect(run.results.filter((result) => result.status !== 'pass').map((result) => `${result.item.id}: ${result.message}`)).toEqual([]);
    expect(run.results).toHaveLength(36);
    expect(run.lines.filter((line) => line.startsWith('  PASS'))).toHaveLength(36);
    expect(run.kind).toEqual({ kind: 'demo', reason: 'the POS under test is the bundled reference POS' });
    const outcome = outcomeOf(run);
    expect(outcome).toMatchObject({ verdict: 'passed', exitCode: 0 });
    const report = buildReport(run, outcome, TEST_SIGNER);
    const files = signedFolderFiles(report, TEST_SIGNER);
    expect(verifyReport(files)).toMatchObject({ intact: true, problems: [], signature: { valid: true, kind: 'self-signed', checkedWith: 'its own key' } });
    expect(rejudgeReport(report)).toEqual({ judged: 36, problems: [] });
    // Every verdict rests on journal entries, each stored once; MENU-05 passes on what did not arrive.
    expect(report.items.filter((item) => item.evidence.length === 0).map((item) => item.id)).toEqual(['MENU-05']);
    const stored = report.evidence.map((piece) => piece.journalId);
    expect(new Set(stored).size).toBe(stored.length);
    expect(report.items.flatMap((item) => item.evidence).every((id) => stored.includes(id))).toBe(true);
  }, 30_000);

  it('stamps a full run of a named, versioned POS a certification, naming it in every rendering', async () => {
    const run = await runAgainst(await sandboxAndPos([], { disguised: true }), { pos: { name: 'acme-pos', version: '4.2.0', build: '1187' } });
    expect(run.kind.kind).toBe('certification');
    const files = renderReportFiles(buildReport(run, outcomeOf(run), TEST_SIGNER));
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml'] as const) {
      expect(files[file]).toContain('POS certification report: acme-pos 4.2.0 (build 1187)');
      expect(files[file]).not.toContain('not a certification');
    }
  }, 30_000);

  it('stamps an --only run of the same POS partial, "not a certification" in every rendering', async () => {
    const run = await runAgainst(await sandboxAndPos([], { disguised: true }), { only: ['ORDER-02'], pos: { name: 'acme-pos', version: '4.2.0' } });
    expect(run.kind).toEqual({ kind: 'partial', reason: 'only ORDER-02 was run (--only)' });
    const files = renderReportFiles(buildReport(run, outcomeOf(run), TEST_SIGNER));
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml'] as const) expect(files[file]).toContain('Partial run, not a certification: acme-pos 4.2.0');
    expect(files['report.md']).toContain('> **NOT A CERTIFICATION: partial run, only ORDER-02 was run (--only).**');
  }, 30_000);

  it('judges a POS whose every call is refused 401 by the root cause, every knock-on quoting the 401 and its journal id', async () => {
    const run = await runAgainst(await sandboxAndPos(['exp-in-ms']));
    expectKnockOnsRooted(run);
    const notPassed = run.results.filter((result) => result.status !== 'pass');
    expect(notPassed.filter((result) => !result.blockedBy).map((result) => `${result.item.id} ${result.status}`)).toEqual(['AUTH-06 fail']);
    // The calls the items needed were made: a knock-on says what was sent and why it was refused, never that nothing came.
    const direct = notPassed.filter((result) => result.blockedBy === 'AUTH-06');
    expect(direct.map((result) => result.item.id)).toEqual(['ORDER-02', 'ORDER-03', 'ORDER-07', 'ORDER-08', 'MENU-01', 'MENU-02', 'MENU-07', 'MENU-08', 'MENU-09', 'REFUND-01', 'REFUND-04', 'REFUND-05', 'REFUND-06']);
    for (const result of direct) expect(result.message).toMatch(/\(j-\d{6}\), refused 401: token claim exp is \d{13}, which looks like milliseconds/);
    for (const result of notPassed) expect(result.message).not.toMatch(/no status call|never sent|sent no|undefined/);
    expect(outcomeOf(run).reason).toMatch(/^required item AUTH-06 \(fail\) did not pass; 10 more required items were blocked by it \(ORDER-02, ORDER-03, ORDER-04, ORDER-07, ORDER-08, MENU-01, MENU-02, MENU-07, MENU-08, MENU-09\)\. AUTH-06: 24 of 24 calls broke the rule; POST \/v2\/order\/status \(j-\d{6}\): token claim exp is \d{13}, which looks like milliseconds/);
  }, 30_000);

  it('resends the rejected order when the POS\'s status call lands between its read of the order and its read of the journal', async () => {
    // The checklist reads the order, then the journal for the POS's status call about it. A call landing between the
    // two was seen in the journal while the order read still said AWAITING_STATUS, and the step, taking that stale
    // read for the POS's answer, never resent the order: ORDER-04 said it "never reached REJECTED" though ORDER-03
    // passed. Two gates make the two land in that order every time: the POS's first status call waits until the
    // checklist has read the order AWAITING_STATUS, and that read's answer waits until the call is in the journal.
    const { sandbox, sandboxUrl } = await quickSandbox();
    const signal = () => {
      let done = () => {};
      const promise = new Promise<void>((resolve) => (done = resolve));
      return { promise, done };
    };
    const readAwaiting = signal();
    const statusCallJournaled = signal();
    sandbox.journal.on('added', (summary: { method: string; path: string }) => {
      if (summary.method === 'POST' && summary.path.endsWith('/order/status')) statusCallJournaled.done();
    });
    const checklistSide = await forwardTo(sandboxUrl, async (req, text) => {
      if (req.method === 'GET' && /^\/_sandbox\/orders\/[^/?]+$/.test(req.url ?? '') && (JSON.parse(text) as { Status?: string }).Status === 'AWAITING_STATUS') {
        readAwaiting.done();
        await statusCallJournaled.promise;
      }
    });
    const posSide = await forwardTo(sandboxUrl, async (req) => {
      if (req.method === 'POST' && req.url === '/v2/order/status') await readAwaiting.promise;
    }, 'before');
    const pos = createReferencePos({
      identity: { posName: PARTNER.name, key: PARTNER.nonProdKey, apiKey: PARTNER.apiKey },
      sandboxUrl: posSide,
      menus: fixtures.menus,
      locations: fixtures.locations,
      bugs: new Set(),
    });
    const run = await runAgainst({ sandboxUrl: checklistSide, posUrl: await listen(pos) }, { only: ['ORDER-03', 'ORDER-04'], capabilities: ['refund'] });
    expect(run.results.filter((result) => result.status !== 'skipped').map((result) => `${result.item.id} ${result.status}: ${result.message}`)).toEqual([
      expect.stringMatching(/^ORDER-03 pass: /),
      expect.stringMatching(/^ORDER-04 pass: /),
    ]);
  }, 30_000);

  it('does not start when the driver answers GET /health with a 404: the URL is not the driver', async () => {
    const { sandboxUrl } = await sandboxAndPos();
    const notADriver = await listen((_req: IncomingMessage, res: ServerResponse) => void res.writeHead(404).end('Not Found'));
    await expect(runAgainst({ sandboxUrl, posUrl: notADriver })).rejects.toThrow(
      `the POS driver at ${notADriver}/health answered 404, not 2xx: is the URL the driver's base URL (the one serving GET /health, POST /decide …)?`,
    );
  });

  it('does not start when no order URL is given and the sandbox has none: the orders would go nowhere', async () => {
    const { sandboxUrl, posUrl } = await sandboxAndPos();
    await expect(runChecklist({ sandboxUrl, mode: 'driver', driverUrl: posUrl, capabilities: [], out: { write: () => true } })).rejects.toThrow(
      `the sandbox at ${sandboxUrl} has no POS order URL, so the checklist's orders would go nowhere: pass --pos-order-url URL (or SANDBOX_POS_ORDER_URL), or start the sandbox with --pos-order-url`,
    );
  });

  it('marks the items of a POS that answers nothing blocked, never passed, and exits 1', async () => {
    // Silence costs every wait in full: at 3 s per start check, 1 s per delivery try and 1.5 s per driver call this
    // test took 12 s, so the start checks and the tries wait 300 ms here, the driver 500 ms (the wording at the
    // default 3 s is held below). The order is waited for until its tries are over (?wait=true) whatever waitMs is.
    const { sandboxUrl } = await quickSandbox([50, 50], 300);
    const held: IncomingMessage[] = [];
    const silent = await listen((req: IncomingMessage) => void held.push(req));
    const only = ['ORDER-01', 'ORDER-02', 'MENU-01', 'REFUND-01', 'AUTH-01'];
    const run = await runAgainst({ sandboxUrl, posUrl: silent }, { only, startWaitMs: 300, waitMs: 500 });
    expect(Object.fromEntries(only.map((id) => [id, run.statusOf(id)]))).toEqual({ 'ORDER-01': 'blocked', 'ORDER-02': 'blocked', 'MENU-01': 'blocked', 'REFUND-01': 'blocked', 'AUTH-01': 'blocked' });
    expect(run.results.find((result) => result.item.id === 'ORDER-01')!.message).toMatch(/^the POS answered none of the 3 deliveries: no answer within 300 ms$/);
    expect(run.results.find((result) => result.item.id === 'REFUND-01')).toMatchObject({ blockedBy: 'ORDER-01', message: 'the POS took none of the orders sent to it in this run (each ended DELIVERY_FAILED, unanswered or refused), so there is no order to refund' });
    expect(run.lines.join('')).toContain("note: the POS driver at " + `${silent}/health accepted the connection but did not answer within 0.3 s; going on`);
    expect(run.lines.join('')).toContain("note: the POS's order endpoint at " + `${silent}/order accepted the connection but did not answer within 0.3 s; going on`);
    expect(silentNote('the POS driver', `${silent}/health`, DEFAULT_START_WAIT_MS)).toBe(`  note: the POS driver at ${silent}/health accepted the connection but did not answer within 3 s; going on\n`);
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
    expect(run.statusOf('ORDER-01')).toBe('pass');
    expect(run.results.find((result) => result.item.id === 'ORDER-02')).toMatchObject({ status: 'skipped', message: 'the POS must be made to act for this item: run with --driver or --interactive' });
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
