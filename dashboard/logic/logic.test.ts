import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { curlCommand, shellQuote } from './curl-command.js';
import { journalQuery, NO_FILTER, rowMatches } from './traffic-filter.js';
import { tokenChecks } from './token-checks.js';
import type { TrafficRow } from './types.js';

const row: TrafficRow = { id: 'j-000001', time: '2026-11-26T10:00:00.000Z', direction: 'inbound', method: 'POST', path: '/v2/order/refund', status: 401, latencyMs: 2, locationId: 'loc-std-001', requestId: 'r', findings: [] };

describe('Traffic filters', () => {
  it.each([
    [{ path: 'refund' }, true],
    [{ path: '/menu' }, false],
    [{ status: '4xx' }, true],
    [{ status: '4XX' }, true],
    [{ status: '2xx' }, false],
    [{ status: '401' }, true],
    [{ status: '400' }, false],
    // What the journal would refuse (and the page leaves out of its query) filters nothing.
    [{ status: '4' }, true],
    [{ location: 'loc-kiosk-001' }, false],
    [{ direction: 'outbound' }, false],
    [{ findings: 'true' }, false],
    [{ findings: 'false' }, true],
  ] as const)('%j takes the row: %s', (filter, taken) => {
    expect(rowMatches(row, { ...NO_FILTER, ...filter })).toBe(taken);
  });

  it('asks the journal for the same filters', () => {
    expect(journalQuery({ ...NO_FILTER, path: '/order', status: '4xx', findings: 'true' }, 200)).toBe('path=%2Forder&status=4xx&findings=true&limit=200');
    expect(journalQuery({ ...NO_FILTER, status: 'nope' }, 50)).toBe('limit=50');
  });
});

describe('tokenChecks', () => {
  const token = { header: { alg: 'HS256' }, claims: { sub: 'loc', jti: 'j', iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi', nbf: 1_800_000_000, exp: 1_800_000_300 }, sha256: 'x' };

  it('ticks every rule of a call that authenticated', () => {
    const checks = tokenChecks({ direction: 'inbound', token })!;
    expect(checks.every((check) => check.verdict === 'pass')).toBe(true);
    expect(checks.find((check) => check.rule === 'exp')!.details).toEqual(['exp 1800000300 (2027-01-15T08:05:00Z)']);
  });

  it('explains the failed claims of a 401, the structure ticked', () => {
    const checks = tokenChecks({ direction: 'inbound', token, tokenDefects: [{ part: 'exp', message: 'token expired' }, { part: 'iss', message: 'bad iss' }] })!;
    expect(Object.fromEntries(checks.map((check) => [check.rule, check.verdict]))).toMatchObject({ signature: 'pass', iss: 'fail', exp: 'fail', sub: 'pass' });
  });

  it('leaves what follows a broken signature unjudged, as the sandbox did', () => {
    const checks = tokenChecks({ direction: 'inbound', token, tokenDefects: [{ part: 'signature', message: 'bad signature' }] })!;
    expect(checks.map((check) => check.verdict)).toEqual(['pass', 'pass', 'pass', 'fail', ...Array(6).fill('not-judged')]);
  });

  it('puts a missing header under format, and has nothing to say of a delivery to the POS', () => {
    expect(tokenChecks({ direction: 'inbound', tokenDefects: [{ part: 'authorization', message: 'Authorization header is missing' }] })![0]).toEqual({
      rule: 'format',
      verdict: 'fail',
      details: ['Authorization header is missing'],
    });
    expect(tokenChecks({ direction: 'outbound', token })).toBeUndefined();
    expect(tokenChecks({ direction: 'inbound' })).toBeUndefined();
  });
});

describe('curlCommand', () => {
  it('sends the same call again with a fresh token, and no header curl sets itself', () => {
    const command = curlCommand(
      {
        method: 'POST',
        path: '/v2/order/refund',
        query: {},
        request: { headers: { host: 'x', authorization: 'sha256:…', 'x-service-locationid': 'loc-std-001', 'x-api-key': 'sha256:…', 'content-type': 'application/json', 'content-length': '9' }, body: { ExternalId: "O'Brien" }, bodyBytes: 9 },
      },
      'http://127.0.0.1:4100',
      'eyJ.a.b',
    );
    expect(command).toBe(
      [
        "curl -i -X POST 'http://127.0.0.1:4100/v2/order/refund'",
        "-H 'Authorization: Bearer eyJ.a.b'",
        "-H 'x-service-locationid: loc-std-001'",
        "-H 'content-type: application/json'",
        '-H "x-api-key: ${POS_API_KEY:-your-x-api-key}"',
        `--data-raw '{"ExternalId":"O'\\''Brien"}'`,
      ].join(' \\\n  '),
    );
  });

  it('quotes any text so that the shell gives it back unchanged', () => {
    for (const text of ["it's", '$(rm -rf /)', '`x` "y" \\ \n', '']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString()).toBe(text);
    }
  });
});
