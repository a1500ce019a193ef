import { describe, expect, it } from '@jest/globals';
import { columns, exchangeLine, exchangeMatches, exchangeRow, faultLines, type Paint } from './control-format.js';

const entry = {
  id: 'j-000007',
  time: '2026-11-24T02:22:47.621Z',
  direction: 'inbound' as const,
  method: 'POST',
  path: '/v2/order/refund',
  locationId: 'loc-std-001',
  requestId: 'r-1',
  latencyMs: 3,
  fault: { rule: 'outage', kind: 'status' },
  response: { status: 503 },
  findings: [{ code: 'UNKNOWN_FIELD' }],
};

describe('exchangeLine', () => {
  it('says a journal entry in one line: time, direction, call, status, location, duration, findings, fault, id', () => {
    expect(exchangeLine(exchangeRow(entry as never))).toBe('02:22:47.621  POS → sandbox  POST /v2/order/refund  503  loc-std-001  3 ms  findings: UNKNOWN_FIELD  fault: outage  j-000007');
  });

  it('says an order the sandbox sent that got no answer', () => {
    const row = exchangeRow({ ...entry, direction: 'outbound', path: '/order', fault: undefined, findings: [], latencyMs: undefined, response: { status: 0, error: 'timed out after 10000 ms' } } as never);
    expect(exchangeLine(row)).toBe('02:22:47.621  sandbox → POS  POST /order  no answer  loc-std-001  timed out after 10000 ms  j-000007');
  });
});

describe('exchangeMatches', () => {
  const row = exchangeRow(entry as never);
  it.each([
    [{}, true],
    [{ path: '/order/refund' }, true],
    [{ path: '/menu' }, false],
    [{ status: '5xx' }, true],
    [{ status: '503' }, true],
    [{ status: '4xx' }, false],
    [{ location: 'loc-std-001' }, true],
    [{ location: 'loc-kiosk-001' }, false],
    [{ findings: true }, true],
    [{ findings: false }, false],
  ])('%j → %s', (filter, expected) => {
    expect(exchangeMatches(row, filter)).toBe(expected);
  });
});

describe('columns', () => {
  it('aligns by the visible width, colour codes left out', () => {
    const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
    expect(columns([['A', 'B'], [red('long'), 'x']])).toEqual(['A     B', `${red('long')}  x`]);
  });
});

describe('faultLines', () => {
  it('says a rule with no limit as such, and no rules as none', () => {
    const paint: Paint = { dim: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t, cyan: (t) => t, bold: (t) => t };
    expect(faultLines([{ id: 'slow', match: {}, action: { kind: 'delay', ms: 2000 }, seen: 3, fired: 1, left: null }], paint)).toEqual([
      'RULE  MATCH          ACTION         FIRED        LEFT',
      'slow  every request  delay ms=2000  1 of 3 seen  no limit',
    ]);
    expect(faultLines([])).toEqual(['no fault rules in force']);
  });
});
