/**
 * Against a POS the reference POS's authors did not write: the faults the checklist injects are met whatever the
 * POS's pace, and a cause the POS's traffic shows once has one root, named first in every file of the report.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers } from '../../server/test/live.js';
import { PARTNER } from '../../server/test/helpers.js';
import type { Capability } from '../checklist-types.js';
import { buildReport } from '../report/report-model.js';
import { renderReportFiles } from '../report/render-report-files.js';
import { rejudgeReport } from '../report/rejudge.js';
import { judgedItems, runOutcome } from '../run-outcome.js';
import { runAgainstOtherPos } from './checklist-live.js';
import type { Quirks } from './other-pos.js';
import { TEST_SIGNER } from './test-signer.js';

afterEach(closeServers);

async function runWith(quirks: Quirks, only?: string[], capabilities: Capability[] = ['refund'], waitMs?: number) {
  const { run, said } = await runAgainstOtherPos(quirks, only, capabilities, {}, waitMs);
  return { run, said: (id: string) => said(id).status, message: (id: string) => said(id).message };
}

describe('the outage of REFUND-03 and REFUND-06, whatever the POS’s pace', () => {
  it.each([
    ['retries after 1.1 s and 2.3 s', [1100, 2300]],
    ['retries after 2.5 s, within the wait', [2500]],
    // Its first send leaves at once, the driver's call still open: the rule was in force before the POS was asked.
    ['retries after 1 s exactly, as the docs allow', [1000]],
  ])('a POS that %s meets the 503 on its first send and passes both', async (_case, retryWaitsMs) => {
    const { said, message } = await runWith({ retryWaitsMs }, ['REFUND-03', 'REFUND-06'], ['refund'], 4000);
    expect([said('REFUND-03'), said('REFUND-06')]).toEqual(['pass', 'pass']);
    expect(message('REFUND-03')).toMatch(/^the refund met a 503 \(j-\d{6}\) and was sent 1 more time, the first \d+ ms later \(j-\d{6}\): at most 3 sends, at least 1 s apart$/);
  }, 30_000);

  it('fails REFUND-03 for a retry 50 ms after the 503, as the rule "at least 1 s apart" says; REFUND-06 sees the refund delivered', async () => {
    const { said, message } = await runWith({ retryWaitsMs: [50, 50] }, ['REFUND-03', 'REFUND-06']);
    expect([said('REFUND-03'), said('REFUND-06')]).toEqual(['fail', 'pass']);
    expect(message('REFUND-03')).toMatch(/^the refund met a 503 \(j-\d{6}\) and was sent again \d+ ms later \(j-\d{6}\); a retry waits at least 1 s, with backoff$/);
  }, 30_000);
});

describe('one root per cause', () => {
  it('a POS with another partner’s name and key: AUTH-01 is the one root, explained first in every file; nothing passes on tokens it refuses alike', async () => {
    const { run, said, message } = await runWith({ identity: { name: 'acme-pos', key: 'acme-nonprod-key-0123456789abcdef' }, checkToken: 'before-booking' }, undefined, ['refund', 'hub', 'kiosk']);
    expect(said('AUTH-01')).toBe('fail');
    expect(message('AUTH-01')).toMatch(
      /^the POS holds another partner's credentials than this sandbox plays \(partner "demo-pos"\): its tokens carry iss "acme-pos" and do not verify with the non-prod key of "demo-pos" \(j-\d{6}\), and it refused \d+ order delivery tries whose token the sandbox signed with the non-prod key of "demo-pos" \(401, j-\d{6}\); \d+ of \d+ calls broke the rule; /,
    );
    const root = run.results.find((result) => result.item.id === 'AUTH-01')!;
    expect(root.hint).toMatch(/^Run the sandbox as the POS’s partner: set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY where the sandbox runs/);
    // The exchanges it names are its evidence: the refused delivery among them.
    for (const id of root.message.match(/j-\d{6}/g)!) expect(root.evidence.map((entry) => entry.id)).toContain(id);
    // The same cause, shown by other items: knock-ons of the root.
    expect(['AUTH-03', 'ORDER-01'].map(said)).toEqual(['blocked by AUTH-01', 'blocked by AUTH-01']);
    // A POS that refuses the sandbox's good tokens cannot be judged on bad ones, nor on how soon it takes an order.
    expect(['AUTH-10', 'AUTH-11', 'AUTH-12', 'ORDER-05', 'ORDER-06'].map(said)).toEqual(Array(5).fill('blocked by ORDER-01'));
    expect(['ORDER-02', 'ORDER-03', 'ORDER-07', 'ORDER-08'].map(said)).toEqual(Array(4).fill('blocked by ORDER-01'));
    expect(['MENU-01', 'REFUND-01'].map(said)).toEqual(['blocked by AUTH-01', 'blocked by ORDER-01']);
    const outcome = runOutcome(judgedItems(run.results));
    expect(outcome.reason).toMatch(/^required item AUTH-01 \(fail\) did not pass; \d+ more required items were blocked by it \([^)]*\)\. AUTH-01: the POS holds another partner's credentials/);
    expect(outcome.roots.map((root) => root.id)).toEqual(['AUTH-01']);

    const report = buildReport(run, outcome, TEST_SIGNER);
    expect(rejudgeReport(report)).toMatchObject({ problems: [] });
    const files = renderReportFiles(report);
    const explanation = 'the POS holds another partner&#39;s credentials';
    // First: before any item's own line in every rendering a person or a CI system reads.
    expect(files['report.md'].indexOf("the POS holds another partner's credentials")).toBeLessThan(files['report.md'].indexOf('## Items'));
    expect(files['report.html'].indexOf(explanation) === -1 ? files['report.html'].indexOf("the POS holds another partner's credentials") : files['report.html'].indexOf(explanation)).toBeLessThan(files['report.html'].indexOf('AUTH-02'));
    const firstCase = /<testcase [^>]*name="([^"]*)"[^>]*>\s*<(failure|error)[^>]*message="([^"]*)"/.exec(files['junit.xml'])!;
    expect(firstCase[1]).toMatch(/^AUTH-01 /);
    expect(firstCase[3]).toMatch(/^the POS holds another partner&apos;s credentials|^the POS holds another partner's credentials/);
    expect(JSON.parse(files['report.json']).outcome.roots[0]).toMatchObject({ id: 'AUTH-01', message: expect.stringMatching(/^the POS holds another partner's credentials/) });
  }, 60_000);

  it('a POS that signs and checks with another key under the partner’s own name (a mistyped CI secret): one root, AUTH-01, naming the key', async () => {
    const { run, said } = await runWith({ identity: { key: `${PARTNER.nonProdKey}-typo` }, checkToken: 'before-booking' }, ['ORDER-02', 'AUTH-10', 'MENU-01', 'AUTH-01', 'ORDER-01', 'ORDER-06']);
    expect(['AUTH-01', 'ORDER-01', 'ORDER-02', 'AUTH-10', 'MENU-01', 'ORDER-06'].map(said)).toEqual(['fail', 'blocked by AUTH-01', 'blocked by ORDER-01', 'blocked by ORDER-01', 'blocked by AUTH-01', 'blocked by ORDER-01']);
    expect(run.results.find((result) => result.item.id === 'AUTH-01')!.message).toMatch(/^the POS holds another non-prod key than this sandbox plays partner "demo-pos" with: its tokens do not verify with the non-prod key of "demo-pos" \(j-\d{6}\), and it refused \d+ order delivery tries/);
    expect(runOutcome(judgedItems(run.results)).roots.map((root) => root.id)).toEqual(['AUTH-01']);
  }, 30_000);

  it('a POS that checks the service’s tokens with another key but signs its own right: ORDER-01 is the root, with a fix about the token check', async () => {
    const { run, said } = await runWith({ identity: { checkKey: `${PARTNER.nonProdKey}-typo` }, checkToken: 'before-booking' }, ['ORDER-02', 'AUTH-10', 'ORDER-05', 'MENU-01', 'ORDER-01', 'ORDER-06', 'AUTH-01']);
    expect(['AUTH-01', 'ORDER-01'].map(said)).toEqual(['pass', 'fail']);
    expect(['ORDER-02', 'AUTH-10', 'ORDER-05', 'ORDER-06'].map(said)).toEqual(Array(4).fill('blocked by ORDER-01'));
    const root = run.results.find((result) => result.item.id === 'ORDER-01')!;
    expect(root.message).toMatch(/^the POS refused \d+ of the \d+ delivery tries with 401 although each carried a good token from the sandbox \(HS256 with the non-prod key of "demo-pos", aud "demo-pos", valid when sent\)/);
    expect(root.hint).toMatch(/^Check the service’s token with the partner’s non-prod key/);
  }, 30_000);

  it('a POS that declines an order with an error status: ORDER-03 fails with a fix that says how to decline, and ORDER-01 follows it', async () => {
    const { run, said } = await runWith({ rejectWithStatus: 422 }, ['ORDER-02', 'ORDER-03', 'ORDER-01']);
    expect(['ORDER-02', 'ORDER-03', 'ORDER-01'].map(said)).toEqual(['pass', 'fail', 'blocked by ORDER-03']);
    expect(run.results.find((result) => result.item.id === 'ORDER-03')!.hint).toMatch(/decline an order the merchant cannot take with POST \/order\/status \{"Status": "REJECTED", "Reason"\}/);
  }, 30_000);
});
