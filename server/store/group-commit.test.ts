import { describe, expect, it } from '@jest/globals';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('makes concurrent commits share one flush', async () => {
    let flushes = 0;
    const commits = new GroupCommit(async () => {
      flushes += 1;
    });
    await Promise.all(Array.from({ length: 50 }, () => commits.commit()));
    expect(flushes).toBe(1);
  });

  it('runs one more flush for commits made while a flush is writing, and none are resolved early', async () => {
    const seen: number[][] = [];
    let state = 0;
    let release: () => void = () => undefined;
    const commits = new GroupCommit(async () => {
      const snapshot = state;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      seen.push([snapshot]);
    });
    state = 1;
    const first = commits.commit();
    await new Promise((resolve) => setImmediate(resolve));
    state = 2;
    const second = commits.commit();
    const third = commits.commit();
    release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([second, third]);
    expect(seen).toEqual([[1], [2]]);
  });

  it('rejects the commits of a failed flush, and the next commit tries again', async () => {
    let fail = true;
    const commits = new GroupCommit(async () => {
      if (fail) throw new Error('disk full');
    });
    await expect(commits.commit()).rejects.toThrow('disk full');
    fail = false;
    await expect(commits.commit()).resolves.toBeUndefined();
  });
});
