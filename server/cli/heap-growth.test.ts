import { describe, expect, it } from '@jest/globals';
import { heapGrowthFlag, HEAP_GROWING_PERCENT } from './listen.js';

describe('heapGrowthFlag', () => {
  it('sets the sandbox’s heap growth when the user chose none', () => {
    expect(heapGrowthFlag([], undefined)).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--max-old-space-size=4096')).toBe('--heap-growing-percent=80');
  });

  it.each([
    [['--heap-growing-percent=80'], undefined],
    [['--heap_growing_percent=80'], undefined],
    [['--heap-growing-percent'], undefined],
    [[], '--trace-gc --heap-growing-percent=10'],
  ])('leaves it to the user who chose one: node %j, NODE_OPTIONS %j', (execArgv, nodeOptions) => {
    expect(heapGrowthFlag(execArgv, nodeOptions)).toBeUndefined();
  });

  it('is not fooled by a flag that only starts the same', () => {
    expect(heapGrowthFlag(['--heap-growing-percentage=5'], '')).toBe('--heap-growing-percent=80');
  });
});
