import { describe, expect, it } from '@jest/globals';
import type { FiredFault } from './fault-registry.js';
import { duplicateFindings, judgeTokenFault, tokenFaultFindings } from './outbound-fault.js';
import { DEFAULT_DISPATCH_POLICY, retryWaitMs } from '../orders/order-delivery.js';

const forged: FiredFault = { rule: 'forged', kind: 'bad-signature', action: { kind: 'bad-signature' }, source: 'file' };
const refused = { delivered: false as const, problem: 'the POS answered 401; …' };

describe('judging a try whose token a fault spoiled', () => {
  it('calls a 401 the POS doing its job', () => {
    expect(judgeTokenFault(forged, refused, 401)).toEqual({ delivered: false, problem: 'the POS refused a token signed with another key (fault rule forged) with 401, as it must' });
  });

  it('names another refusal, and says 401 is expected', () => {
    expect(judgeTokenFault({ ...forged, kind: 'expired-token' }, refused, 403)).toEqual({
      delivered: false,
      problem: 'the POS refused an expired token (fault rule forged) with 403; 401 UNAUTHORIZED is expected',
    });
  });

  it('leaves other faults, no answer and a delivered try as they were', () => {
    expect(judgeTokenFault({ ...forged, kind: 'drop' }, refused, 401)).toBe(refused);
    expect(judgeTokenFault(forged, refused, undefined)).toBe(refused);
    const delivered = { delivered: true as const, externalId: 'X', unknownFields: [] };
    expect(judgeTokenFault(forged, delivered, 200)).toBe(delivered);
  });

  it('finds an accepted forged order, and nothing without a token fault', () => {
    expect(tokenFaultFindings(forged).map((found) => found.code)).toEqual(['FORGED_TOKEN_ACCEPTED']);
    expect(tokenFaultFindings({ ...forged, kind: 'duplicate' })).toEqual([]);
    expect(tokenFaultFindings(undefined)).toEqual([]);
  });
});

describe('judging the two answers to a duplicate delivery', () => {
  const delivered = (externalId: string) => ({ delivered: true as const, externalId, unknownFields: [] });

  it('finds nothing when both carry the same ExternalId, or when neither delivered', () => {
    expect(duplicateFindings([delivered('A'), delivered('A')])).toEqual([]);
    expect(duplicateFindings([refused, refused])).toEqual([]);
    expect(duplicateFindings([delivered('A')])).toEqual([]);
  });

  it('finds another ExternalId, or a copy refused', () => {
    expect(duplicateFindings([delivered('A'), delivered('B')])[0]!.message).toMatch(/^the same delivery \(same OrderId and RequestId\) sent twice was answered ExternalId 'A', then 'B'/);
    expect(duplicateFindings([delivered('A'), refused])[0]!.message).toBe('the same delivery was sent twice and only one copy delivered it; the duplicate copy failed: the POS answered 401; …');
  });
});

describe('the wait before the next try', () => {
  it.each([
    ['the backoff', 1, {}, 1000],
    ['the last backoff again', 5, {}, 2000],
    ['a longer Retry-After on a 429', 1, { status: 429, responseHeaders: { 'retry-after': '5' } }, 5000],
    ['a shorter Retry-After on a 503 keeps the backoff', 2, { status: 503, responseHeaders: { 'retry-after': '1' } }, 2000],
    ['Retry-After capped at 60 s', 1, { status: 429, responseHeaders: { 'retry-after': '3600' } }, 60000],
    ['Retry-After on a 500 ignored', 1, { status: 500, responseHeaders: { 'retry-after': '9' } }, 1000],
    ['an HTTP-date Retry-After ignored', 1, { status: 429, responseHeaders: { 'retry-after': 'Sat, 21 Nov 2026 10:00:00 GMT' } }, 1000],
  ])('%s', (_name, attempt, result, ms) => {
    expect(retryWaitMs(DEFAULT_DISPATCH_POLICY, attempt, result)).toBe(ms);
  });
});
