/**
 * Against the POS of other-pos.ts, items that read every call of a run, causes shared by several items, and runs that
 * must judge their own traffic only: the half of the other POS's tests that take whole runs, a file of its own so
 * that jest runs the two halves side by side.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers } from '../../server/test/live.js';
import { HUB_HINT } from './expect-broken.js';
import { quickSandbox, runAgainst, runAgainstOtherPos } from './checklist-live.js';
import { otherPos, type Quirks } from './other-pos.js';
import type { Capability } from '../checklist-types.js';

afterEach(closeServers);

const runWith = (quirks: Quirks, only: string[], capabilities: Capability[] = ['refund'], retryDelaysMs?: number[], attemptTimeoutMs?: number, raceWaitMs?: number) =>
  runAgainstOtherPos(quirks, only, capabilities, { ...(retryDelaysMs ? { retryDelaysMs } : {}), ...(attemptTimeoutMs ? { attemptTimeoutMs } : {}), ...(raceWaitMs ? { raceWaitMs } : {}) });

describe('the checklist against another POS: every call judged, one root per cause, its own run only', () => {
  it('warns MENU-07 for the small menus sent whole, though the standard menu’s update is partial', async () => {
    const { said } = await runWith({ wholeMenu: (locationId) => locationId !== 'loc-std-001' }, ['MENU-01', 'MENU-07', 'MENU-08', 'MENU-09'], ['hub', 'kiosk']);
    expect(said('MENU-01').status).toBe('pass');
    const { status, message } = said('MENU-07');
    const [, flagged, of] = /^(\d+) of (\d+) accepted menu updates flagged; the first: /.exec(message) ?? [];
    expect({ status, flagged: Number(flagged) }).toEqual({ status: 'warn', flagged: Number(of) - 1 });
  }, 30_000);

  it.each([
    ['AUTH-02', 'aud wrong on menu updates only', { claims: (c: Record<string, unknown>, kind: string) => (kind === 'menu' ? { ...c, aud: 'io.service.pos.brokers' } : c) }, 'fail'],
    ['AUTH-03', 'iss wrong on refunds only', { claims: (c: Record<string, unknown>, kind: string) => (kind === 'refund' ? { ...c, iss: 'till-7' } : c) }, 'fail'],
    ['AUTH-04', 'sub the POS name on menu updates only', { claims: (c: Record<string, unknown>, kind: string) => (kind === 'menu' ? { ...c, sub: 'till-7' } : c) }, 'fail'],
    // Tokens of one second are the same token unless something else differs: a claim of its own makes each new.
    ['AUTH-05', 'one jti for every refund token', { claims: (c: Record<string, unknown>, kind: string) => (kind === 'refund' ? { ...c, jti: 'refund-jti', n: Math.random() } : c) }, 'fail'],
    ['AUTH-08', 'x-api-key left out of status calls only', { statusHeaders: ({ 'x-api-key': _key, ...rest }: Record<string, string>) => rest }, 'warn'],
  ] as const)('%s reads every call of the run: %s', async (id, _what, quirks, status) => {
    const { said } = await runWith(quirks as Quirks, ['ORDER-02', 'MENU-01', 'REFUND-01', 'REFUND-02', id]);
    expect(said(id).status).toBe(status);
  }, 30_000);

  it('fails MENU-03 for prices in major units sent for one Hub brand only, though the standard menu’s are right', async () => {
    const price = (minor: number, locationId: string) => (locationId.startsWith('loc-hub-') ? minor / 100 + 0.5 : minor);
    const { said } = await runWith({ price }, ['MENU-01', 'MENU-08', 'MENU-03'], ['hub']);
    expect(said('MENU-01').status).toBe('pass');
    expect(said('MENU-03')).toEqual({ status: 'fail', message: expect.stringMatching(/^\d of \d menu updates broke the rule; j-\d{6}: Items\[0\]\.Prices\[0\]\.Price is \d+\.5/) });
  }, 30_000);

  it('counts every call in AUTH-06 for a clock 150 s fast, those the outage answered too', async () => {
    const claims = (correct: Record<string, unknown>) => ({ ...correct, nbf: Number(correct.nbf) + 150, exp: Number(correct.exp) + 150 });
    const { said, run } = await runWith({ claims }, ['ORDER-02', 'REFUND-03', 'AUTH-06']);
    // Counted from each step's own capture, not from the run-wide one AUTH-06 reads.
    const calls = run.steps.filter((step) => step.id !== 'all-traffic').flatMap((step) => step.entries).filter((entry) => entry.direction === 'inbound');
    expect(calls.some((entry) => entry.fault !== undefined)).toBe(true);
    expect(said('AUTH-06')).toEqual({ status: 'fail', message: expect.stringMatching(new RegExp(`^${calls.length} of ${calls.length} calls broke the rule; .*not valid yet`)) });
  }, 30_000);

  it('makes form B’s Service in a form A update one root, MENU-01, with no Hub or Kiosk hint and MENU-07 naming it', async () => {
    const priceEntry = ({ ServiceType: _form_a, ...rest }: { ServiceType: string; Price: unknown }) => ({ Service: 'Pickup', ...rest });
    const items = ['MENU-01', 'MENU-02', 'MENU-07', 'MENU-08', 'MENU-09'];
    const { said } = await runWith({ priceEntry }, items, ['hub', 'kiosk']);
    expect(items.map((id) => `${id} ${said(id).status}`)).toEqual(['MENU-01 fail', 'MENU-02 blocked by MENU-01', 'MENU-07 blocked by MENU-01', 'MENU-08 blocked by MENU-01', 'MENU-09 blocked by MENU-01']);
    expect(items.map((id) => said(id).message).filter((message) => HUB_HINT.test(message))).toEqual([]);
  }, 30_000);

  it('makes a refund naming the OrderId one root, REFUND-01, with no Hub hint though the Hub’s refunds were refused too', async () => {
    const items = ['REFUND-01', 'REFUND-04', 'REFUND-05'];
    const { said } = await runWith({ refundBody: (_body, order) => ({ ExternalId: order?.OrderId }) }, items, ['refund', 'hub', 'kiosk']);
    expect(said('REFUND-01')).toEqual({ status: 'fail', message: expect.stringMatching(/^the refund \(j-\d{6}\) named ExternalId "chk-\w+-\d+", but the POS gave this order "OP-\d+"$/) });
    expect(items.map((id) => `${id} ${said(id).status}`)).toEqual(['REFUND-01 fail', 'REFUND-04 blocked by REFUND-01', 'REFUND-05 blocked by REFUND-01']);
    expect(items.filter((id) => HUB_HINT.test(said(id).message))).toEqual([]);
  }, 30_000);

  it('gives a second run the verdicts of the first, the POS restarted between them with its ExternalIds begun again', async () => {
    const { sandboxUrl } = await quickSandbox();
    const only = ['ORDER-01', 'ORDER-02', 'ORDER-03', 'ORDER-04', 'REFUND-01', 'REFUND-03', 'REFUND-06'];
    const runOnce = async () => {
      // A new POS each time: its numbering starts again at OP-1, as the earlier run's orders did.
      const pos = await otherPos(sandboxUrl);
      const run = await runAgainst({ sandboxUrl, posUrl: pos.url }, { only, capabilities: ['refund'] });
      return run.results.filter((result) => only.includes(result.item.id)).map((result) => `${result.item.id} ${result.status}${result.status === 'pass' ? '' : `: ${result.message}`}`);
    };
    const first = await runOnce();
    expect(first).toEqual(only.map((id) => `${id} pass`));
    expect(await runOnce()).toEqual(first);
  }, 60_000);

  it('warns REFUND-06 for a POS that drops a refund after one 503, and passes REFUND-03: it sent no loop', async () => {
    const { said } = await runWith({ retryAfter5xx: false }, ['REFUND-03', 'REFUND-06']);
    expect(said('REFUND-03')).toEqual({ status: 'pass', message: expect.stringMatching(/^the refund met a 503 \(j-\d{6}\) and was not sent again$/) });
    expect(said('REFUND-06')).toEqual({ status: 'warn', message: expect.stringMatching(/^the refund of OP-1 met a 503 \(j-\d{6}\) and was never sent again once the service was back \(watched \d+ s\): the merchant's refund is lost/) });
  }, 30_000);
});
