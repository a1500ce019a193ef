import { describe, expect, it } from '@jest/globals';
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { Verdict } from './checklist-types.js';
import { refusalShape } from './refusals.js';
import { linkSameCause } from './same-cause.js';

const noStatus = (id: string): Verdict => ({ status: 'fail', message: `order ${id} is AWAITING_STATUS: the POS answered the delivery but sent no status call`, evidence: [], cause: 'no-status-call' });

describe('linkSameCause', () => {
  it('makes an item that failed the way an earlier item did its knock-on', () => {
    expect(linkSameCause('ORDER-07', noStatus('o-7'), [['ORDER-01', { status: 'pass', message: '', evidence: [] }], ['ORDER-02', noStatus('o-1')]])).toEqual({
      status: 'blocked',
      message: 'order o-7 is AWAITING_STATUS: the POS answered the delivery but sent no status call; the same as ORDER-02',
      evidence: [],
      cause: 'no-status-call',
      blockedBy: 'ORDER-02',
    });
  });

  it('names the first item that failed with the cause, whichever items they are', () => {
    const refused = (id: string): Verdict => ({ status: 'fail', message: `update for ${id} refused`, evidence: [], cause: 'PUT /v2/menu 400: LocationId is … but header x-service-locationid is …' });
    expect(linkSameCause('MENU-09', refused('kiosk'), [['MENU-08', refused('hub')], ['ORDER-02', noStatus('o-1')]])).toMatchObject({ status: 'blocked', blockedBy: 'MENU-08' });
  });

  it.each([
    ['ORDER-02 passed (only Hub orders get no status call)', (): Verdict => ({ status: 'pass', message: '', evidence: [] })],
    ['ORDER-02 failed for another cause', (): Verdict => ({ status: 'fail', message: 'refused', evidence: [], cause: 'POST /v2/order/status 400: …' })],
    ['ORDER-02 failed with no cause named', (): Verdict => ({ status: 'fail', message: 'refused', evidence: [] })],
  ])('leaves the failure its own when %s', (_case, earlier) => {
    expect(linkSameCause('ORDER-07', noStatus('o-7'), [['ORDER-02', earlier()]])).toEqual(noStatus('o-7'));
  });

  it('leaves the first failure with a cause its own, and a verdict that is not a failure as it is', () => {
    expect(linkSameCause('ORDER-02', noStatus('o-1'), [])).toEqual(noStatus('o-1'));
    const warned: Verdict = { status: 'warn', message: 'slow', evidence: [], cause: 'no-status-call' };
    expect(linkSameCause('ORDER-06', warned, [['ORDER-02', noStatus('o-1')]])).toEqual(warned);
  });
});

describe('refusalShape', () => {
  const refused = (message: string): JournalEntry =>
    ({ method: 'POST', path: '/v2/order/status', response: { status: 400, headers: {}, body: { errors: [{ code: 'INVALID_PAYLOAD', message }] } } }) as unknown as JournalEntry;

  it('is one shape for one failure at different orders and locations, and two for two', () => {
    const early = (id: string, location: string, order: string) => refused(`no order with ExternalId '${id}' at location '${location}'. The sandbox has not read the reply to order ${order} yet`);
    expect(refusalShape(early('OP-1', 'loc-std-001', 'chk-a1b2c3-01'))).toBe(refusalShape(early('OP-7', 'loc-hub-001-burgers', 'chk-a1b2c3-07')));
    const elsewhere = refused("ExternalId 'OP-7' is order chk-a1b2c3-07 of location 'loc-hub-001-noodles', not of 'loc-hub-001-burgers'");
    expect(refusalShape(elsewhere)).not.toBe(refusalShape(early('OP-1', 'loc-std-001', 'chk-a1b2c3-01')));
  });
});
