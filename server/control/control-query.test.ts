import { describe, expect, it } from '@jest/globals';
import { nextPageLink, nextPagePath, pageAfter, parsePageLimit, RECORD_PAGE } from './control-query.js';

const records = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, even: i % 2 === 0 }));
const ids = (page: { items: Array<{ id: string }>; next?: string } | undefined) => page && { ids: page.items.map((r) => r.id), next: page.next };

describe('parsePageLimit', () => {
  it.each([
    [undefined, { ok: true, limit: 1000 }],
    ['1', { ok: true, limit: 1 }],
    ['5000', { ok: true, limit: 5000 }],
  ])('takes %j', (value, expected) => {
    expect(parsePageLimit(value, RECORD_PAGE)).toEqual(expected);
  });

  it.each(['0', '5001', '100000', '-1', '1.5', '1e3', 'all', ''])('refuses %j, naming the largest page', (value) => {
    expect(parsePageLimit(value, RECORD_PAGE)).toEqual({
      ok: false,
      problem: `limit must be a whole number from 1 to 5000 (the largest page), got '${value}'; follow the Link rel="next" header for the rest`,
    });
  });
});

describe('pageAfter', () => {
  it.each<[number, string | undefined, ReturnType<typeof ids>]>([
    [2, undefined, { ids: ['a', 'b'], next: 'b' }],
    [2, 'b', { ids: ['c', 'd'], next: 'd' }],
    [2, 'd', { ids: ['e'], next: undefined }],
    [5, undefined, { ids: ['a', 'b', 'c', 'd', 'e'], next: undefined }],
    [4, 'a', { ids: ['b', 'c', 'd', 'e'], next: undefined }],
    [2, 'e', { ids: [], next: undefined }],
    [2, 'z', undefined],
  ])('limit %d after %j → %j', (limit, after, expected) => {
    expect(ids(pageAfter(records, (r) => r.id, () => true, limit, after))).toEqual(expected);
  });

  it('filters after the cursor, and finds a cursor the filter no longer takes', () => {
    const even = (r: { even: boolean }) => r.even;
    expect(ids(pageAfter(records, (r) => r.id, even, 1))).toEqual({ ids: ['a'], next: 'a' });
    expect(ids(pageAfter(records, (r) => r.id, even, 1, 'a'))).toEqual({ ids: ['c'], next: 'c' });
    expect(ids(pageAfter(records, (r) => r.id, even, 1, 'b'))).toEqual({ ids: ['c'], next: 'c' });
    expect(ids(pageAfter(records, (r) => r.id, even, 1, 'c'))).toEqual({ ids: ['e'], next: undefined });
  });
});

describe('nextPagePath', () => {
  it('keeps the filters and the limit, and sets the cursor', () => {
    expect(nextPagePath('/_sandbox/refunds?status=PENDING&limit=2', 'after', 'r-2')).toBe('/_sandbox/refunds?status=PENDING&limit=2&after=r-2');
    expect(nextPagePath('/_sandbox/refunds?after=r-2&limit=2', 'after', 'r 4/&')).toBe('/_sandbox/refunds?after=r+4%2F%26&limit=2');
    expect(nextPagePath('/_sandbox/journal?after=j-000001', 'before', 'j-000009')).toBe('/_sandbox/journal?after=j-000001&before=j-000009');
  });
});

describe('nextPageLink', () => {
  it.each([
    ['</_sandbox/refunds?after=r-2>; rel="next"', '/_sandbox/refunds?after=r-2'],
    ['</a>; rel="prev", </b>; rel="next"', '/b'],
    ['</a>; title="x, y"; REL=NEXT', '/a'],
    ['</a>; rel="next last"', '/a'],
    ['</a>; rel="prev"', undefined],
    ['', undefined],
    [null, undefined],
  ])('finds rel=next in %j', (header, expected) => {
    expect(nextPageLink(header)).toBe(expected);
  });
});
