import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { asideNames, setAsideReport, setAsideState } from './set-aside-state.js';

const NOW = new Date('2026-11-23T10:15:30.123Z');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aside-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('asideNames', () => {
  it('stamps the time into both names so the pair still opens with --data', () => {
    expect(asideNames('/x/db.json', NOW, () => false)).toEqual({
      dataFile: '/x/db.moved-2026-11-23T10-15-30Z.json',
      segmentsFolder: '/x/db.moved-2026-11-23T10-15-30Z.segments',
    });
    expect(asideNames('/x/state', NOW, () => false).segmentsFolder).toBe('/x/state.moved-2026-11-23T10-15-30Z.segments');
  });

  it('never picks a name that is taken', () => {
    const taken = new Set(['/x/db.moved-2026-11-23T10-15-30Z.json', '/x/db.moved-2026-11-23T10-15-30Z-2.segments']);
    expect(asideNames('/x/db.json', NOW, (path) => taken.has(path)).dataFile).toBe('/x/db.moved-2026-11-23T10-15-30Z-3.json');
  });
});

describe('setAsideState', () => {
  it('moves the data file and its segments folder, byte for byte, and deletes nothing', () => {
    mkdirSync(join(dir, 'db.segments'));
    writeFileSync(join(dir, 'db.json'), 'null');
    writeFileSync(join(dir, 'db.segments', 'refunds-000001.json'), '[1]');
    const moved = setAsideState(join(dir, 'db.json'), NOW);
    expect(moved).toEqual([
      { from: join(dir, 'db.json'), to: join(dir, 'db.moved-2026-11-23T10-15-30Z.json') },
      { from: join(dir, 'db.segments'), to: join(dir, 'db.moved-2026-11-23T10-15-30Z.segments') },
    ]);
    expect(readdirSync(dir).sort()).toEqual(['db.moved-2026-11-23T10-15-30Z.json', 'db.moved-2026-11-23T10-15-30Z.segments']);
    expect(readFileSync(join(dir, 'db.moved-2026-11-23T10-15-30Z.segments', 'refunds-000001.json'), 'utf8')).toBe('[1]');
    expect(setAsideReport(join(dir, 'db.json'), moved)).toBe(
      [
        `--fresh-state: moved the earlier state aside (nothing deleted); to open it again: --data ${join(dir, 'db.moved-2026-11-23T10-15-30Z.json')}`,
        `  ${join(dir, 'db.json')} → ${join(dir, 'db.moved-2026-11-23T10-15-30Z.json')}`,
        `  ${join(dir, 'db.segments')} → ${join(dir, 'db.moved-2026-11-23T10-15-30Z.segments')}`,
        '',
      ].join('\n'),
    );
  });

  it('moves a data file that is a folder, and a second time within the second to another name', () => {
    mkdirSync(join(dir, 'db.json'));
    setAsideState(join(dir, 'db.json'), NOW);
    writeFileSync(join(dir, 'db.json'), '{}');
    expect(setAsideState(join(dir, 'db.json'), NOW)).toEqual([{ from: join(dir, 'db.json'), to: join(dir, 'db.moved-2026-11-23T10-15-30Z-2.json') }]);
    expect(existsSync(join(dir, 'db.moved-2026-11-23T10-15-30Z.json'))).toBe(true);
  });

  it('says so when there is nothing to move', () => {
    expect(setAsideState(join(dir, 'db.json'), NOW)).toEqual([]);
    expect(setAsideReport(join(dir, 'db.json'), [])).toBe(`--fresh-state: nothing stored at ${join(dir, 'db.json')} to move aside; starting from the fixtures\n`);
  });
});
