import { describe, expect, it } from '@jest/globals';
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { Traffic } from '../checklist-types.js';
import { CHECKLIST } from './all-items.js';

const nothing: Traffic = { entries: [], orders: [], refunds: [], asked: { orderId: 'o-1', posName: 'demo-pos', externalId: 'E-1', locationId: 'loc-1', itemId: 'itm-x', form: 'A', expected: [{ locationId: 'loc-1', itemId: 'i', price: 1 }] }, actor: { answered: false, detail: 'driver POST http://127.0.0.1:4200/refund: no answer within 15 s' } };

/** A status call the POS made, with a token of these claims. */
function call(id: string, claims: Record<string, unknown>, extra: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id, requestId: id, time: '2026-11-21T10:00:00.000Z', direction: 'inbound', method: 'POST', path: '/v2/order/status', query: {}, locationId: 'loc-1',
    token: { header: { alg: 'HS256' }, claims, sha256: `sha-${id}` },
    request: { headers: {}, bodyBytes: 2 }, response: { status: 200, headers: {} }, latencyMs: 1, findings: [], ...extra,
  };
}

describe('the checklist verdicts', () => {
  it.each(CHECKLIST.map((item) => [item.id, item] as const))('%s is blocked, never passed, when its traffic never arrived', (_id, item) => {
    expect(item.judge(nothing).status).toBe('blocked');
  });

  it('AUTH-05 fails two different tokens with one jti, passes two with their own, and calls one token sent twice too little to judge', () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'AUTH-05')!;
    const claims = { jti: 'same', sub: 'loc-1' };
    expect(item.judge({ ...nothing, entries: [call('j-1', claims), call('j-2', { ...claims, sub: 'loc-2' })] })).toEqual({
      status: 'fail',
      message: 'jti "same" was used by 2 different tokens',
      evidence: ['j-1', 'j-2'],
    });
    expect(item.judge({ ...nothing, entries: [call('j-1', claims), call('j-2', { jti: 'other', sub: 'loc-1' })] }).status).toBe('pass');
    expect(item.judge({ ...nothing, entries: [call('j-1', claims), { ...call('j-2', claims), token: call('j-1', claims).token! }] })).toEqual({
      status: 'blocked',
      message: 'only 1 token was seen (2 of 2 calls); whether each token gets its own jti needs at least two',
      evidence: ['j-1', 'j-2'],
    });
  });

  it('AUTH-02 names the first call with another audience, and judges the calls a fault rule answered too (a retry carries a token)', () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'AUTH-02')!;
    const good = { aud: 'io.service.pos.brokers.openapi' };
    const faulted = call('j-3', { aud: 'x' }, { fault: { rule: 'r', kind: 'status', source: 'api' } });
    expect(item.judge({ ...nothing, entries: [call('j-1', good), call('j-2', { aud: 'wrong' }), faulted] })).toEqual({
      status: 'fail',
      message: '2 of 3 calls broke the rule; POST /v2/order/status (j-2): aud is "wrong"',
      evidence: ['j-2', 'j-3'],
    });
    expect(item.judge({ ...nothing, entries: [call('j-1', good), faulted] }).message).toBe('1 of 2 calls broke the rule; POST /v2/order/status (j-3): aud is "x"');
  });

  it('ORDER-05 judges each duplicated delivery on its own: two pairs answered alike pass, whatever their ExternalIds', () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'ORDER-05')!;
    const copy = (id: string, orderId: string, n: number, externalId: string): JournalEntry => ({
      ...call(id, {}),
      direction: 'outbound',
      orderId,
      requestId: `req-${orderId}`,
      delivery: { dispatch: 1, attempt: 1, of: 3, verdict: 'delivered', copy: n },
      fault: { rule: 'r', kind: 'duplicate', source: 'api' },
      response: { status: 200, headers: {}, body: { ExternalId: externalId } },
    });
    const pairs = [copy('j-1', 'o-1', 1, 'R-1'), copy('j-2', 'o-1', 2, 'R-1'), copy('j-3', 'o-2', 1, 'R-2'), copy('j-4', 'o-2', 2, 'R-2')];
    expect(item.judge({ ...nothing, entries: pairs })).toEqual({ status: 'pass', message: 'the copies of each of 2 duplicated deliveries were answered alike ("R-1", "R-2")', evidence: ['j-1', 'j-2', 'j-3', 'j-4'] });
    expect(item.judge({ ...nothing, entries: [...pairs.slice(0, 3), copy('j-4', 'o-2', 2, 'R-3')] })).toEqual({
      status: 'fail',
      message: 'the copies of one delivery of order o-2 were answered with different ExternalIds: "R-2", "R-3"',
      evidence: ['j-3', 'j-4'],
    });
  });

  it('AUTH-06 fails a token in milliseconds met only on the retries after an injected 503', () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'AUTH-06')!;
    // Sent at the calls' time (2026-11-21T10:00:00Z), valid for three minutes.
    const seconds = { nbf: 1_795_255_200, exp: 1_795_255_380 };
    const retry = call('j-2', { nbf: seconds.nbf * 1000, exp: seconds.exp * 1000 }, { fault: { rule: 'r', kind: 'status', source: 'api' }, response: { status: 503, headers: {} } });
    expect(item.judge({ ...nothing, entries: [call('j-1', seconds, { time: '2026-11-21T10:00:00.000Z' }), retry] })).toMatchObject({
      status: 'fail',
      message: '1 of 2 calls broke the rule; POST /v2/order/status (j-2): nbf is 1795255200000, which is milliseconds; §5 wants seconds since the epoch',
    });
  });

  it('AUTH-06 counts every call of a POS whose clock is 150 s fast, those a fault rule answered too', () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'AUTH-06')!;
    const sentAt = Math.floor(Date.parse('2026-11-21T10:00:00.000Z') / 1000);
    const ahead = { nbf: sentAt + 150, exp: sentAt + 330 };
    const refusedNbf = { tokenDefects: [{ part: 'nbf' as const, message: 'token is not valid yet: nbf is 150 s after the sandbox clock' }], response: { status: 401, headers: {} } };
    const faulted = call('j-3', ahead, { fault: { rule: 'r', kind: 'status', source: 'api' }, response: { status: 503, headers: {} } });
    expect(item.judge({ ...nothing, entries: [call('j-1', ahead, refusedNbf), call('j-2', ahead, refusedNbf), faulted] })).toMatchObject({
      status: 'fail',
      message: '3 of 3 calls broke the rule; POST /v2/order/status (j-1): token is not valid yet: nbf is 150 s after the sandbox clock',
      evidence: ['j-1', 'j-2', 'j-3'],
    });
    expect(item.judge({ ...nothing, entries: [faulted] }).message).toBe(
      `1 of 1 call broke the rule; POST /v2/order/status (j-3): the token was not valid yet when it was sent (nbf ${sentAt + 150}, 150 s after it was sent at ${sentAt}, beyond the 60 s tolerance); check the POS clock`,
    );
  });

  it("ORDER-01 fails an ExternalId given to two orders of the run, and not one the sandbox found given to an earlier run's order", () => {
    const item = CHECKLIST.find((candidate) => candidate.id === 'ORDER-01')!;
    const delivery = (id: string, orderId: string, externalId: string, findings: JournalEntry['findings'] = []): JournalEntry => ({
      ...call(id, {}),
      direction: 'outbound',
      path: '/order',
      orderId,
      delivery: { dispatch: 1, attempt: 1, of: 3, verdict: 'delivered' },
      response: { status: 200, headers: {}, body: { ExternalId: externalId } },
      findings,
    });
    const earlier = [{ code: 'EXTERNAL_ID_REUSED', message: "ExternalId 'R-1' was already given to order chk-old-01; each order needs its own", section: '§2.1' }] as JournalEntry['findings'];
    expect(item.judge({ ...nothing, entries: [delivery('j-1', 'chk-new-01', 'R-1', earlier), delivery('j-2', 'chk-new-02', 'R-2')] }).status).toBe('pass');
    expect(item.judge({ ...nothing, entries: [delivery('j-1', 'chk-new-01', 'R-1'), delivery('j-2', 'chk-new-02', 'R-1')] })).toEqual({
      status: 'fail',
      message: "ExternalId \"R-1\" was given to chk-new-01 and chk-new-02 of location 'loc-1'; each order needs its own, or a refund cannot tell them apart (EXTERNAL_ID_REUSED)",
      evidence: ['j-1', 'j-2'],
    });
  });
});
