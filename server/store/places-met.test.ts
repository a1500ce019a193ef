import { describe, expect, it } from '@jest/globals';
import { PlacesMet } from './places-met.js';

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
