/**
 * The verdicts against a POS the reference POS's authors did not write, each bent one way a partner's POS might be:
 * the checklist must find the fault where it is, say why in the sandbox's own words, and pass what is merely unusual.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers } from '../../server/test/live.js';
import { runAgainstOtherPos } from './checklist-live.js';
import type { Quirks } from './other-pos.js';
import type { Capability } from '../checklist-types.js';

afterEach(closeServers);

const runWith = (quirks: Quirks, only: string[], capabilities: Capability[] = ['refund'], retryDelaysMs?: number[], attemptTimeoutMs?: number, raceWaitMs?: number) =>
  runAgainstOtherPos(quirks, only, capabilities, { ...(retryDelaysMs ? { retryDelaysMs } : {}), ...(attemptTimeoutMs ? { attemptTimeoutMs } : {}), ...(raceWaitMs ? { raceWaitMs } : {}) });

describe('the checklist against another POS', () => {
  it('passes it as it is: orders, status, refunds (through an outage too) and menu', async () => {
    const items = ['ORDER-01', 'ORDER-02', 'ORDER-03', 'REFUND-01', 'REFUND-03', 'REFUND-06', 'MENU-01', 'AUTH-06'];
    const { said } = await runWith({}, items);
    expect(items.map((id) => `${id} ${said(id).status}`)).toEqual(items.map((id) => `${id} pass`));
    expect(said('REFUND-06').message).toMatch(/^the refund of OP-\d+ met a 503 \(j-\d{6}\) and was sent again \d{4} ms later, once the service was back \(j-\d{6}\): accepted and PROCESSED$/);
  }, 30_000);

  it('fails ORDER-01 for one ExternalId given to every order (a table number, say)', async () => {
    const { said } = await runWith({ externalId: () => 'TABLE-7' }, ['ORDER-01', 'ORDER-02', 'ORDER-03']);
    expect(said('ORDER-01')).toEqual({ status: 'fail', message: expect.stringMatching(/^ExternalId "TABLE-7" was given to (chk-\w+-01 and chk-\w+-02|\d orders \(chk-\w+-01, chk-\w+-02, [^)]*\)) of location 'loc-std-001'; each order needs its own/) });
  }, 30_000);

  it('fails ORDER-02 with the sandbox’s reason when the status call names the OrderId, not the ExternalId, and never says it was not sent', async () => {
    const { said } = await runWith({ statusBody: (body, order) => ({ ...(body as object), ExternalId: order.OrderId }) }, ['ORDER-02']);
    expect(said('ORDER-02')).toEqual({
      status: 'fail',
      message: expect.stringMatching(/^order (chk-\w+-01) is AWAITING_STATUS: the POS sent its status naming ExternalId "\1" as POST \/v2\/order\/status \(j-\d{6}\), refused 400: no order with ExternalId '\1' at location 'loc-std-001'/),
    });
  }, 30_000);

  it('fails ORDER-02 naming the missing location header of the status call', async () => {
    const { said } = await runWith({ statusHeaders: ({ 'x-service-locationid': _dropped, ...rest }) => rest }, ['ORDER-02']);
    expect(said('ORDER-02').status).toBe('fail');
    expect(said('ORDER-02').message).toMatch(/refused 400: .*x-service-locationid/);
  }, 30_000);

  it('fails ORDER-02 once for a status call the reply waits for, and makes ORDER-03 its knock-on: one failure, not two', async () => {
    // A delivery timeout over the sandbox's wait for a status call that races its reply, as the default 10 s is over
    // the default 2 s. The wait is 300 ms here: each of the two orders waits it out, 4 s of this test at 2 s.
    const { said } = await runWith({ statusTiming: 'awaited-before-reply' }, ['ORDER-02', 'ORDER-03'], ['refund'], undefined, 1_000, 300);
    expect(said('ORDER-02')).toEqual({ status: 'fail', message: expect.stringMatching(/refused 400: no order with ExternalId 'OP-1' at location 'loc-std-001'.*The sandbox has not read the reply to order chk-\w+-01 yet/) });
    expect(said('ORDER-03')).toEqual({ status: 'blocked by ORDER-02', message: expect.stringMatching(/refused 400: no order with ExternalId 'OP-2'.*; the same as ORDER-02$/) });
  }, 30_000);

  it.each([
    ['a status call sent before its reply', { statusTiming: 'before-reply' as const }],
    ['a status call sent twice (the second is 409)', { statusTiming: 'twice' as const }],
    ['Status in the reply and a status call too (the call is 409)', { statusInReply: true }],
  ])('passes ORDER-02 for %s', async (_case, quirks) => {
    const { said } = await runWith(quirks, ['ORDER-02']);
    expect(said('ORDER-02').status).toBe('pass');
  }, 30_000);

  it('fails AUTH-06 for exp in milliseconds on refund tokens only, and blocks REFUND-01 by it, quoting the 401', async () => {
    const claims = (correct: Record<string, unknown>, kind: string) => (kind === 'refund' ? { ...correct, exp: Number(correct.exp) * 1000 } : correct);
    const { said } = await runWith({ claims }, ['ORDER-02', 'REFUND-01', 'AUTH-06']);
    expect(said('ORDER-02').status).toBe('pass');
    expect(said('AUTH-06')).toEqual({ status: 'fail', message: expect.stringMatching(/^1 of \d+ calls broke the rule; POST \/v2\/order\/refund \(j-\d{6}\): token claim exp is \d{13}, which looks like milliseconds/) });
    expect(said('REFUND-01')).toEqual({ status: 'blocked by AUTH-06', message: expect.stringMatching(/^the POS sent the refund of OP-1 as POST \/v2\/order\/refund \(j-\d{6}\), refused 401: token claim exp is \d{13}, which looks like milliseconds/) });
  }, 30_000);

  it('blocks ORDER-02 by AUTH-06 when a clock five minutes fast makes every token not valid yet', async () => {
    const claims = (correct: Record<string, unknown>) => ({ ...correct, nbf: Number(correct.nbf) + 300, exp: Number(correct.exp) + 300 });
    const { said } = await runWith({ claims }, ['ORDER-02', 'AUTH-06']);
    expect(said('AUTH-06').status).toBe('fail');
    expect(said('ORDER-02')).toEqual({ status: 'blocked by AUTH-06', message: expect.stringMatching(/refused 401: token is not valid yet: nbf is .+ check the POS clock$/) });
  }, 30_000);

  it('fails REFUND-01 for an ExternalId sent as a number, quoting the sandbox’s refusal and the type of what it sent', async () => {
    const { said } = await runWith({ externalId: (_order, n) => String(1000 + n), refundBody: (body) => ({ ExternalId: Number(body.ExternalId) }) }, ['REFUND-01']);
    expect(said('REFUND-01')).toEqual({
      status: 'fail',
      message: expect.stringMatching(/^the POS sent the refund of "1001" naming ExternalId 1001 \(a number, not a string\) as POST \/v2\/order\/refund \(j-\d{6}\), refused 400: ExternalId must be a string, got number 1001$/),
    });
  }, 30_000);

  it('fails REFUND-01 for a refund naming another ExternalId (the pager number), without waiting out the step', async () => {
    const { said, run } = await runWith({ refundBody: () => ({ ExternalId: '42' }) }, ['REFUND-01']);
    expect(said('REFUND-01')).toEqual({ status: 'fail', message: expect.stringMatching(/^the refund \(j-\d{6}\) named ExternalId "42", but the POS gave this order "OP-1"$/) });
    // The refund it did create was processed (and failed ORDER_NOT_FOUND): no wait ran to its end.
    expect(run.steps.find((step) => step.id === 'refund-order')!.waits.map((wait) => wait.ended)).not.toContain('timed out');
  }, 30_000);

  it('fails REFUND-01 for a refund sent twice (a double submit), though each was accepted and the first PROCESSED', async () => {
    const { said } = await runWith({ refundSends: 2 }, ['REFUND-01']);
    expect(said('REFUND-01')).toEqual({ status: 'fail', message: expect.stringMatching(/^the POS sent the refund of OP-1 2 times and each was accepted \(j-\d{6}, j-\d{6}\): a refund is sent once/) });
  }, 30_000);

  it('warns ORDER-06 for kiosk orders acknowledged slowly, though the first standard order was quick', async () => {
    const { said } = await runWith({ ackDelayMs: (order) => (order.Channel === 'kiosk' ? 700 : 0) }, ['ORDER-02', 'ORDER-08', 'ORDER-06'], ['kiosk']);
    expect(said('ORDER-06')).toEqual({ status: 'warn', message: expect.stringMatching(/^order chk-\w+-02 was acknowledged after \d{3} ms, over half the 1000 ms timeout/) });
  }, 30_000);

  it('fails AUTH-10 for a POS that books an order before it checks the token, though it answers the forged try 401', async () => {
    // A backoff of 500 ms leaves the POS's hasty status call well before the clean retry, however busy the machine.
    const { said } = await runWith({ checkToken: 'after-booking' }, ['AUTH-10'], ['refund'], [500]);
    expect(said('AUTH-10')).toEqual({ status: 'fail', message: expect.stringMatching(/^the POS refused the order with a token with a bad signature \(401\), yet sent POST \/v2\/order\/status \(j-\d{6}\) about it \d+ ms later, before the clean retry: it booked the order it refused$/) });
    expect((await runWith({ checkToken: 'before-booking' }, ['AUTH-10'])).said('AUTH-10').status).toBe('pass');
  }, 30_000);

  it('passes AUTH-10 when the status call landing between the forged try and its retry is about an earlier order', async () => {
    // The earlier order's status is sent again 400 ms later (409): inside the 1.5 s backoff after the forged try.
    const { said, run } = await runWith({ checkToken: 'before-booking', statusAgainAfterMs: 400 }, ['ORDER-02', 'AUTH-10'], ['refund'], [1500]);
    const step = run.steps.find((candidate) => candidate.id === 'forged-bad-signature')!;
    expect(step.entries.filter((entry) => entry.path.endsWith('/order/status') && entry.response.status === 409)).toHaveLength(1);
    expect(said('AUTH-10').status).toBe('pass');
  }, 30_000);

  it('fails MENU-01 for an update sent with another location header, quoting the sandbox’s refusal', async () => {
    const { said } = await runWith({ menuLocation: () => 'loc-std-999' }, ['MENU-01']);
    expect(said('MENU-01')).toEqual({ status: 'fail', message: expect.stringMatching(/^no menu update came for location loc-std-001; the updates went to loc-std-999; the one sent was PUT \/v2\/menu \(j-\d{6}\), refused 400: .*loc-std-999/) });
  }, 30_000);

  it('blocks MENU-01 by MENU-03 for prices sent as strings, and fails MENU-03 itself', async () => {
    const { said } = await runWith({ price: (minor) => String(minor) }, ['MENU-01', 'MENU-03']);
    expect(said('MENU-03')).toEqual({ status: 'fail', message: expect.stringMatching(/^1 of 1 menu update broke the rule; j-\d{6}: Items\[0\]\.Prices\[0\]\.Price is "\d+"$/) });
    expect(said('MENU-01')).toEqual({ status: 'blocked by MENU-03', message: expect.stringMatching(/^the POS sent the update for loc-std-001 as PUT \/v2\/menu \(j-\d{6}\), refused 400: Items\[0\]\.Prices\[0\]\.Price must be a whole number/) });
  }, 30_000);
});
