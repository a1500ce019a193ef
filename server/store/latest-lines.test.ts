import { describe, expect, it } from '@jest/globals';
import { latestLines, type LatestLine } from './latest-lines.js';

const FILE = '{"id":"a","n":1}\n{"id":"b","n":1}\n{"id":"a","n":2}\n{"id":"c", "n":1}\n';
const at = (row: number, key: string): LatestLine => ({ row, key, render: () => `{"id":"${key}","rendered":true}` });

describe('latestLines', () => {
  it('copies each record\'s line from its row as it is, in the order given', () => {
    expect(latestLines(FILE, [at(3, 'c'), at(1, 'b'), at(2, 'a')])).toBe('{"id":"c", "n":1}\n{"id":"b","n":1}\n{"id":"a","n":2}\n');
  });

  it('renders a record whose row holds another record, or lies past the file\'s whole lines', () => {
    expect(latestLines(FILE, [at(0, 'b'), at(4, 'd'), at(9, 'e')])).toBe('{"id":"b","rendered":true}\n{"id":"d","rendered":true}\n{"id":"e","rendered":true}\n');
  });

  it('takes no line cut short as a row, and a key only as a whole JSON string', () => {
    const cut = `${FILE}{"id":"d","n"`;
    expect(latestLines(cut, [at(4, 'd')])).toBe('{"id":"d","rendered":true}\n');
    // Row 0 holds the key "a"; a key that only starts the same ("ab") is not found there.
    expect(latestLines(FILE, [at(0, 'ab')])).toBe('{"id":"ab","rendered":true}\n');
  });

  it('is empty for no records, not a blank line a start would refuse', () => {
    expect(latestLines(FILE, [])).toBe('');
  });
});
