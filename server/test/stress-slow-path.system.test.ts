/**
 * The hunt against a reference POS that answers an order of many items late (--bug slow-big-order): every failing try
 * of its shrinking costs that delay, so it is a file of its own, run side by side with the other hunts, and only at
 * full size (POS_SANDBOX_STRESS_FULL=1, npm run test:stress, CI).
 */
import { afterAll, describe, it } from '@jest/globals';
import { closeServers } from './loopback.js';
import { FULL, huntsDown } from './stress-pairs.js';

afterAll(closeServers);

describe('the hunt', () => {
  (FULL ? it : it.skip)('finds --bug slow-big-order (a slow) and shrinks it to an order from which removing any part makes it pass', () => huntsDown('slow-big-order', 'slow', 80), 120_000);
});
