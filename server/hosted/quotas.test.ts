import { describe, expect, it } from '@jest/globals';
import { RateBucket } from './quotas.js';

describe('RateBucket', () => {
  it('lets a burst through at once, then the rate, and says how long to wait', () => {
    const clock = { now: 1_000_000 };
    const bucket = new RateBucket(2, 4, () => clock.now);
    expect(Array.from({ length: 5 }, () => bucket.take())).toEqual([undefined, undefined, undefined, undefined, 1]);
    clock.now += 500;
    expect([bucket.take(), bucket.take()]).toEqual([undefined, 1]);
    clock.now += 10_000;
    // Ten idle seconds refill the burst, never more.
    expect(Array.from({ length: 5 }, () => bucket.take())).toEqual([undefined, undefined, undefined, undefined, 1]);
  });

  it('never refuses a client that keeps to the rate', () => {
    const clock = { now: 0 };
    const bucket = new RateBucket(50, 1, () => clock.now);
    const refused = Array.from({ length: 1000 }, () => {
      clock.now += 20;
      return bucket.take();
    }).filter((wait) => wait !== undefined);
    expect(refused).toEqual([]);
  });

  it('asks for whole seconds, longer at a slow rate', () => {
    const clock = { now: 0 };
    const bucket = new RateBucket(0.1, 1, () => clock.now);
    expect([bucket.take(), bucket.take()]).toEqual([undefined, 10]);
  });

  it('takes a clock that goes back as no time at all', () => {
    const clock = { now: 10_000 };
    const bucket = new RateBucket(1, 1, () => clock.now);
    bucket.take();
    clock.now = 0;
    expect(bucket.take()).toBe(1);
    clock.now = 1000;
    expect(bucket.take()).toBeUndefined();
  });
});
