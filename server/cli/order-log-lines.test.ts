import { describe, expect, it } from '@jest/globals';
import { OrderLogLines } from './serve-run.js';

describe('OrderLogLines', () => {
  it('says a state is new once, however often the order changes within it', () => {
    const lines = new OrderLogLines();
    // NEW, DISPATCHED, a failed try and a retry (still DISPATCHED), AWAITING_STATUS.
    expect([1, 2, 2, 2, 3].map((length) => lines.isNewState('o-1', length))).toEqual([true, true, false, false, true]);
    expect(lines.isNewState('o-2', 1)).toBe(true);
  });

  it('forgets the oldest order past its limit, and then logs it again as new', () => {
    const lines = new OrderLogLines(2);
    lines.isNewState('a', 1);
    lines.isNewState('b', 1);
    lines.isNewState('c', 1);
    expect([lines.isNewState('b', 1), lines.isNewState('a', 1)]).toEqual([false, true]);
  });
});
