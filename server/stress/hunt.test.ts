import { describe, expect, it } from '@jest/globals';
import { fixtures } from '../test/helpers.js';
import { hunt } from './hunt.js';

describe('hunt', () => {
  it('ends with the error when the sandbox goes out of reach, and makes no finding of it', async () => {
    let runs = 0;
    const findings: unknown[] = [];
    const failing = hunt({
      seed: 1,
      orders: 20,
      locations: fixtures.locations,
      menus: fixtures.menus,
      run: async () => {
        // Down from the third order on, as a sandbox that stopped stays stopped.
        if (++runs >= 3) throw new Error('connect ECONNREFUSED 127.0.0.1:3000');
        return { ok: true, decidedMs: 5 };
      },
      onFinding: (finding) => findings.push(finding),
    });
    await expect(failing).rejects.toThrow('connect ECONNREFUSED 127.0.0.1:3000');
    expect(findings).toEqual([]);
  });
});
