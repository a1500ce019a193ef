import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SegmentedCollection } from './segmented-collection.js';
import { fileStorage } from './segment-storage.js';

interface Row {
  id: string;
  group: string;
  n: number;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'segments-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () =>
  new SegmentedCollection<Row>(fileStorage(join(dir, 'db.json')), 'rows', (row) => row.id, { segmentSize: 3, secondaryKeyOf: (row) => row.group });
/** The segments as the store hands them to load() once they are checked. */
const stored = () =>
  readdirSync(segmentsDir())
    .sort()
    .map((file) => ({ name: file.slice(0, -'.json'.length), records: JSON.parse(readFileSync(join(segmentsDir(), file), 'utf8')) as Row[] }));
const segmentsDir = () => join(dir, 'db.segments');

describe('SegmentedCollection on real lowdb files', () => {
  it('spreads records over segments of at most segmentSize and reads them all back', async () => {
    const rows = open();
    for (let n = 0; n < 7; n++) rows.put({ id: `r${n}`, group: n % 2 ? 'odd' : 'even', n });
    await rows.flush();
    expect(readdirSync(segmentsDir()).sort()).toEqual(['rows-000001.json', 'rows-000002.json', 'rows-000003.json']);
    expect(JSON.parse(readFileSync(join(segmentsDir(), 'rows-000003.json'), 'utf8'))).toEqual([{ id: 'r6', group: 'even', n: 6 }]);

    const again = open();
    again.load(stored());
    expect(again.size).toBe(7);
    expect(again.get('r4')).toEqual({ id: 'r4', group: 'even', n: 4 });
    expect(again.lookup('odd').map((row) => row.id)).toEqual(['r1', 'r3', 'r5']);
  });

  it('rewrites only the segment of a changed record', async () => {
    const rows = open();
    for (let n = 0; n < 6; n++) rows.put({ id: `r${n}`, group: 'g', n });
    await rows.flush();
    const first = statSync(join(segmentsDir(), 'rows-000001.json')).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows.put({ id: 'r4', group: 'changed', n: 40 });
    await rows.flush();
    expect(statSync(join(segmentsDir(), 'rows-000001.json')).mtimeMs).toBe(first);
    expect(JSON.parse(readFileSync(join(segmentsDir(), 'rows-000002.json'), 'utf8'))[1]).toEqual({ id: 'r4', group: 'changed', n: 40 });
    expect(rows.lookup('g').map((row) => row.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r5']);
    expect(rows.lookup('changed').map((row) => row.id)).toEqual(['r4']);
  });

  it('clear removes the segment files', async () => {
    const rows = open();
    rows.put({ id: 'a', group: 'g', n: 1 });
    await rows.flush();
    await rows.clear();
    expect(readdirSync(segmentsDir())).toEqual([]);
    expect(rows.size).toBe(0);
  });

  it('removes a record from its segment, its indexes and the disk, and a restart finds it gone', async () => {
    const rows = open();
    for (let n = 0; n < 5; n++) rows.put({ id: `r${n}`, group: 'g', n });
    await rows.flush();
    expect([rows.remove('r1'), rows.remove('r1'), rows.remove('nothing')]).toEqual([true, false, false]);
    await rows.flush();
    expect(JSON.parse(readFileSync(join(segmentsDir(), 'rows-000001.json'), 'utf8'))).toEqual([
      { id: 'r0', group: 'g', n: 0 },
      { id: 'r2', group: 'g', n: 2 },
    ]);
    expect([rows.size, rows.get('r1'), rows.lookup('g').map((row) => row.id)]).toEqual([4, undefined, ['r0', 'r2', 'r3', 'r4']]);
    const again = open();
    again.load(stored());
    expect(again.all().map((row) => row.id)).toEqual(['r0', 'r2', 'r3', 'r4']);
    // New records go on filling the last segment, never into the room a removal left.
    again.put({ id: 'r5', group: 'g', n: 5 });
    await again.flush();
    expect(JSON.parse(readFileSync(join(segmentsDir(), 'rows-000002.json'), 'utf8')).map((row: Row) => row.id)).toEqual(['r3', 'r4', 'r5']);
  });
});
