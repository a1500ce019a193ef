import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { NOW_S, cleanHeaders, orderEnvelope, posToken, postRefund, testApp } from './helpers.js';

/** A real pino logger writing into an array, to read the findings the sandbox reports. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, codes: () => lines.filter((line) => line.code !== undefined).map((line) => line.code) };
}

const ALL_HEADERS = cleanHeaders();

/** Each row: the finding, what the request does to draw it, and the message strict mode answers with. */
const FINDINGS: Array<[string, { headers?: Record<string, string | undefined>; body?: string }, number, string]> = [
  [
    'SUB_LOCATION_MISMATCH',
    { headers: { Authorization: `Bearer ${posToken({ sub: 'loc-kiosk-001' })}` } },
    401,
    "strict mode: SUB_LOCATION_MISMATCH: token sub is 'loc-kiosk-001' but header x-service-locationid is 'loc-std-001'; sub must be the location identifier (§5)",
  ],
  [
    'TOKEN_LIFETIME_OVER_1H',
    { headers: { Authorization: `Bearer ${posToken({ nbf: NOW_S - 10, exp: NOW_S + 3591 })}` } },
    401,
    'strict mode: TOKEN_LIFETIME_OVER_1H: token is valid for 3601 s (exp − nbf); keep tokens short-lived, at most 3600 s (§5)',
  ],
  [
    'API_KEY_HEADER_MISSING',
    { headers: { 'x-api-key': undefined } },
    400,
    'strict mode: API_KEY_HEADER_MISSING: header x-api-key is missing; the v2 migration notes say every request carries it (§5 migration notes)',
  ],
  [
    'VERSION_HEADER_MISSING',
    { headers: { 'x-api-version': undefined } },
    400,
    'strict mode: VERSION_HEADER_MISSING: no version header; the v2 migration notes say every request carries one (the sandbox looks for x-api-version, api-version, x-version, version) (§5 migration notes)',
  ],
  [
    'UNKNOWN_FIELD',
    { body: JSON.stringify({ ExternalId: 'POS-STD-1001', Amount: 1250 }) },
    400,
    'strict mode: UNKNOWN_FIELD: Amount is not a field of a refund request (§2.1); the service ignores or rejects unknown fields (§2.1)',
  ],
];

describe('refund findings', () => {
  it('reports none for a clean request', async () => {
    const { logger, codes } = capturingLogger();
    const response = await postRefund(testApp({ logger }), { headers: ALL_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-findings']).toBe('0');
    expect(codes()).toEqual([]);
  });

  it.each(FINDINGS)('accepts the request and reports %s', async (code, request) => {
    const { logger, codes } = capturingLogger();
    const response = await postRefund(testApp({ logger }), request);
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-findings']).toBe('1');
    expect(codes()).toEqual([code]);
  });

  it.each(FINDINGS)('rejects the request under --strict for %s', async (_code, request, status, message) => {
    const response = await postRefund(testApp({ strict: true }), request);
    expect(response.status).toBe(status);
    expect(response.body).toEqual(orderEnvelope(status === 401 ? 'UNAUTHORIZED' : 'INVALID_PAYLOAD', message));
  });

  it('reports JTI_REUSED when two different tokens carry one jti, not when one token is sent twice', async () => {
    const { logger, codes } = capturingLogger();
    const app = await testApp({ logger });
    const first = posToken({ jti: 'jti-shared' });
    const second = posToken({ jti: 'jti-shared', exp: NOW_S + 900 });
    const refundOf = (externalId: string) => JSON.stringify({ ExternalId: externalId });
    expect((await postRefund(app, { headers: { Authorization: `Bearer ${first}` }, body: refundOf('A') })).headers['x-sandbox-findings']).toBe('0');
    expect((await postRefund(app, { headers: { Authorization: `Bearer ${first}` }, body: refundOf('B') })).headers['x-sandbox-findings']).toBe('0');
    const reused = await postRefund(app, { headers: { Authorization: `Bearer ${second}` }, body: refundOf('C') });
    expect(reused.status).toBe(200);
    expect(reused.headers['x-sandbox-findings']).toBe('1');
    expect(codes()).toEqual(['JTI_REUSED']);
  });

  it('rejects a reused jti with 401 under --strict', async () => {
    const app = await testApp({ strict: true });
    await postRefund(app, { headers: { Authorization: `Bearer ${posToken({ jti: 'jti-shared' })}` }, body: '{"ExternalId":"A"}' });
    const reused = await postRefund(app, {
      headers: { Authorization: `Bearer ${posToken({ jti: 'jti-shared', exp: NOW_S + 900 })}` },
      body: '{"ExternalId":"B"}',
    });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual(
      orderEnvelope(
        'UNAUTHORIZED',
        "strict mode: JTI_REUSED: jti 'jti-shared' was already used by a different token; every token needs its own jti (§5)",
      ),
    );
  });

  it('counts every finding of one request, and strict mode lists them all', async () => {
    const request = { headers: { 'x-api-key': undefined, 'x-api-version': undefined, Authorization: `Bearer ${posToken({ sub: 'loc-x' })}` } };
    const loose = await postRefund(testApp(), request);
    expect(loose.status).toBe(200);
    expect(loose.headers['x-sandbox-findings']).toBe('3');
    const strict = await postRefund(testApp({ strict: true }), request);
    expect(strict.status).toBe(401);
    expect(strict.body.errors.map((error: { message: string }) => error.message.split(':')[1]?.trim())).toEqual([
      'SUB_LOCATION_MISMATCH',
      'API_KEY_HEADER_MISSING',
      'VERSION_HEADER_MISSING',
    ]);
  });

  it.each(['api-version', 'x-version', 'version'])('takes %s as the version header', async (name) => {
    const response = await postRefund(testApp(), { headers: { 'x-api-version': undefined, [name]: '2' } });
    expect(response.headers['x-sandbox-findings']).toBe('0');
  });
});
