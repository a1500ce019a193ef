/** File 1 with `lines` lines, each the latest of a record, `held` of them still to change. */
import { describe, expect, it } from '@jest/globals';
import { LogFileTally, PlacesMet } from './log-file-tally.js';

function fileOf(lines: number, held = 0): LogFileTally {
  const tally = new LogFileTally();
  tally.appended(1, lines);
  for (let n = 0; n < lines; n++) tally.moved(0, false, 1, n < held);
  return tally;
}

describe('LogFileTally', () => {
  it('counts the lines appended, the row the next one takes', () => {
    const tally = new LogFileTally();
    tally.appended(3, 4);
    tally.appended(3, 2);
    expect(tally.linesOf(3)).toBe(6);
    expect(tally.linesOf(4)).toBe(0);
  });

  it.each([
    [10, 1, false],
    [10, 2, true],
    [5, 1, true],
    [4, 0, false],
  ])('rewrites a file of %i lines with %i superseded only once a fifth are: %s', (lines, superseded, due) => {
    const tally = fileOf(lines);
    tally.appended(2, superseded);
    for (let n = 0; n < superseded; n++) tally.moved(1, false, 2, false);
    expect(tally.dueForRewrite(1)).toBe(due);
  });

  it('does not rewrite a file while one of its latest lines is of a record still to change, and does once it moved on', () => {
    const tally = fileOf(10, 1);
    tally.appended(2, 4);
    for (let n = 0; n < 3; n++) tally.moved(1, false, 2, false);
    // Three of ten superseded, but the held record's line is still here: it will be superseded too, soon.
    expect(tally.dueForRewrite(1)).toBe(false);
    tally.moved(1, true, 2, false);
    expect(tally.dueForRewrite(1)).toBe(true);
  });

  it('does not count the lines of records the retention dropped toward a rewrite, and removes the file once none is left', () => {
    const tally = fileOf(5);
    for (let n = 0; n < 4; n++) tally.dropped(1);
    expect(tally.dueForRewrite(1)).toBe(false);
    expect(tally.unneeded(1)).toBe(false);
    tally.dropped(1);
    expect(tally.unneeded(1)).toBe(true);
  });

  it('no longer waits for a held record the retention dropped', () => {
    const tally = fileOf(5, 1);
    tally.appended(2, 1);
    tally.moved(1, false, 2, false);
    expect(tally.dueForRewrite(1)).toBe(false);
    tally.dropped(1, true);
    expect(tally.dueForRewrite(1)).toBe(true);
  });

  it('starts a rewritten file afresh, and never rewrites again a file whose rewrite failed', () => {
    const tally = fileOf(5);
    tally.appended(2, 2);
    tally.moved(1, false, 2, false);
    tally.moved(1, false, 2, false);
    expect(tally.dueForRewrite(1)).toBe(true);
    tally.rewritten(1, 3);
    expect(tally.linesOf(1)).toBe(3);
    expect(tally.dueForRewrite(1)).toBe(false);
    tally.moved(1, false, 2, false);
    expect(tally.dueForRewrite(1)).toBe(true);
    tally.rewriteFailed(1);
    expect(tally.dueForRewrite(1)).toBe(false);
  });

  it('lists the files in the order first met, and forgets them', () => {
    const tally = new LogFileTally();
    tally.appended(2, 1);
    tally.appended(1, 1);
    tally.moved(0, false, 3, false);
    expect(tally.numbers()).toEqual([2, 1, 3]);
    tally.forget(1);
    expect(tally.numbers()).toEqual([2, 3]);
    tally.clear();
    expect(tally.numbers()).toEqual([]);
  });
});

interface Row {
  key: string;
  at: number;
}
const placeOf = (row: Row) => row.at;

function metInOrder(rows: Row[]): { places: PlacesMet<Row>; records: Map<string, Row> } {
  const places = new PlacesMet(placeOf);
  const records = new Map<string, Row>();
  for (const row of rows) {
    records.set(row.key, row);
    places.met(row);
  }
  return { places, records };
}

describe('the order a start gives the records it met', () => {
  it('leaves records met in the order of their places as they are', () => {
    const { places, records } = metInOrder([
      { key: 'a', at: 1 },
      { key: 'b', at: 1 },
      { key: 'c', at: 2 },
    ]);
    expect(places.reorder(records)).toBe(false);
    expect([...records.keys()]).toEqual(['a', 'b', 'c']);
  });

  it('sorts records met out of order by place, keeping the order met among equal places', () => {
    const { places, records } = metInOrder([
      { key: 'young', at: 30 },
      { key: 'old-1', at: 10 },
      { key: 'mid', at: 20 },
      { key: 'old-2', at: 10 },
      { key: 'youngest', at: 40 },
    ]);
    expect(places.reorder(records)).toBe(true);
    expect([...records.entries()].map(([key, row]) => `${key}@${row.at}`)).toEqual(['old-1@10', 'old-2@10', 'mid@20', 'young@30', 'youngest@40']);
  });

  it('notes no places when records have none (the order met stands)', () => {
    const places = new PlacesMet<Row>(undefined);
    const records = new Map([
      ['b', { key: 'b', at: 2 }],
      ['a', { key: 'a', at: 1 }],
    ]);
    for (const row of records.values()) places.met(row);
    expect(places.reorder(records)).toBe(false);
    expect([...records.keys()]).toEqual(['b', 'a']);
  });
});
