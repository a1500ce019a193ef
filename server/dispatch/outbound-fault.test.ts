import { describe, expect, it } from '@jest/globals';
import type { FiredFault } from '../faults/fault-registry.js';
import { judgeTokenFault, tokenFaultFindings } from './outbound-fault.js';

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
