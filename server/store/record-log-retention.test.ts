/**
 * The retention of a record log against the rule it keeps, written the plain way: after every refund put and every
 * commit, while more are kept than the limit, the oldest that may go goes (one that is not PENDING, and whose latest
 * version is written). Random runs of puts, decisions and commits; and the cost of a refund past the bound when many
 * older ones are PENDING.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RefundRecord } from '../refunds/refund-rules.js';
import { RecordLog } from './record-log.js';
import { memoryStorage } from './segment-storage.js';
import { refundRecord } from '../test/stored-state.js';

const notPending = (refund: RefundRecord) => refund.status !== 'PENDING';

/** The rule, as plainly as it can be said: a list in acceptance order, walked from its start at every drop. */
class PlainRetention {
  readonly kept: Array<{ id: string; pending: boolean; written: boolean }> = [];
  constructor(private readonly limit: number) {}

  put(id: string, pending: boolean): void {
    const known = this.kept.find((record) => record.id === id);
    if (known) Object.assign(known, { pending, written: false });
    else this.kept.push({ id, pending, written: false });
    this.drop();
  }

  commit(): void {
    for (const record of this.kept) record.written = true;
    this.drop();
  }

  private drop(): void {
    for (let i = 0; i < this.kept.length && this.kept.length > this.limit; ) {
      const record = this.kept[i]!;
      if (!record.pending && record.written) this.kept.splice(i, 1);
      else i++;
    }
  }
}

type Step = { kind: 'new'; pending: boolean } | { kind: 'again'; pick: number; pending: boolean } | { kind: 'commit' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('new' as const), pending: fc.boolean() }),
  // A refund already put, put again: decided, or (as a reload can) still PENDING.
  fc.record({ kind: fc.constant('again' as const), pick: fc.nat(), pending: fc.boolean() }),
  fc.record({ kind: fc.constant('commit' as const) }),
);

describe('the retention of a record log', () => {
  it('keeps, after every put and every commit, the very refunds the plain rule keeps, in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 80 }), async (limit, steps) => {
        const log = new RecordLog<RefundRecord>(memoryStorage(), 'refunds', (refund) => refund.id, { limit, droppable: notPending });
        const plain = new PlainRetention(limit);
        let made = 0;
        const ids: number[] = [];
        for (const next of steps) {
          if (next.kind === 'commit') {
            await log.flush();
            plain.commit();
          } else {
            const n = next.kind === 'new' || ids.length === 0 ? ++made : ids[next.pick % ids.length]!;
            if (n === made && !ids.includes(n)) ids.push(n);
            const record = refundRecord(n, { status: next.pending ? 'PENDING' : 'PROCESSED' });
            log.put(record);
            plain.put(record.id, next.pending);
          }
          expect(log.views().map((refund) => refund.id)).toEqual(plain.kept.map((record) => record.id));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('passes over each PENDING refund once: a refund past the bound costs a few checks, not one for each held', async () => {
    let checks = 0;
    const log = new RecordLog<RefundRecord>(memoryStorage(), 'refunds', (refund) => refund.id, {
      limit: 10,
      droppable: (refund) => {
        checks++;
        return notPending(refund);
      },
    });
    for (let n = 1; n <= 2_000; n++) log.put(refundRecord(n, { status: 'PENDING' }));
    await log.flush();
    // Every refund so far checked about once as the walk passed it, and once more after the commit wrote it.
    expect(checks).toBeLessThan(2 * 2_000 + 20);
    checks = 0;
    for (let n = 2_001; n <= 2_100; n++) log.put(refundRecord(n, { status: 'PENDING' }));
    expect(checks).toBe(100);
    // Decided and written, the oldest go first. The commit wrote those 50 and the 100 PENDING put since the last one:
    // each checked once more, and the 1,950 other PENDING ones not at all.
    checks = 0;
    for (let n = 1; n <= 50; n++) log.put(refundRecord(n));
    await log.flush();
    expect(checks).toBe(150);
    expect(log.size).toBe(2_100 - 50);
    expect(log.views()[0]!.id).toBe('rf-0051');
  });
});
