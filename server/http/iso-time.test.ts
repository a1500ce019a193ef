import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isoTime, isoTimeMs } from './iso-time.js';

const asDate = (ms: number) => new Date(ms).toISOString();

describe('isoTime', () => {
  it('writes what toISOString writes for any whole ms, wherever the time before it was', () => {
    const anyTime = fc.integer({ min: -8.64e15, max: 8.64e15 });
    const nearby = fc.tuple(fc.integer({ min: Date.UTC(1969, 11, 30), max: Date.UTC(2100, 0, 1) }), fc.array(fc.integer({ min: -90_000_000, max: 90_000_000 }), { maxLength: 20 }));
    fc.assert(fc.property(anyTime, anyTime, (before, ms) => isoTime(before) === asDate(before) && isoTime(ms) === asDate(ms)));
    // Runs of times on one day and the next, as a server writes them.
    fc.assert(fc.property(nearby, ([start, steps]) => steps.every((step, i) => isoTime(start + step * i) === asDate(start + step * i))));
  });

  it('writes the edges of a day, of a leap day and of the four-digit years as toISOString does', () => {
    const edges = ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '2026-11-29T00:00:00.000Z', '9999-12-31T23:59:59.999Z'].map(Date.parse);
    for (const ms of [...edges, ...edges.map((ms) => ms + 1), ...edges.map((ms) => ms - 1)]) expect(isoTime(ms)).toBe(asDate(ms));
  });

  it('leaves a fraction of a ms, a time outside four-digit years and an invalid time to toISOString, its RangeError included', () => {
    isoTime(Date.UTC(2026, 10, 29, 12));
    expect(isoTime(Date.UTC(2026, 10, 29, 12) + 0.7)).toBe(asDate(Date.UTC(2026, 10, 29, 12) + 0.7));
    expect(isoTime(Date.UTC(2026, 10, 29, 12) - 0.5)).toBe(asDate(Date.UTC(2026, 10, 29, 12) - 0.5));
    expect(isoTime(Date.UTC(10_000, 0, 1, 0, 0, 0, 1))).toBe('+010000-01-01T00:00:00.001Z');
    expect(isoTime(Date.UTC(-1, 0, 1))).toBe('-000001-01-01T00:00:00.000Z');
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});

describe('isoTimeMs', () => {
  it('reads back every time isoTime writes in four digits of year', () => {
    fc.assert(fc.property(fc.integer({ min: Date.parse('0000-01-01T00:00:00.000Z'), max: Date.parse('9999-12-31T23:59:59.999Z') }), (ms) => isoTimeMs(isoTime(ms)) === ms));
  });
});
