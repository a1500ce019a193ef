import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Journal } from '../journal/journal.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import { NOW_S, PARTNER, cleanHeaders, posToken, postRefund, testSandbox } from './helpers.js';

describe('the request journal', () => {
  it('keeps method, path, location, partner, token claims, headers, bodies, status, latency and findings', async () => {
    const sandbox = await testSandbox();
    const token = posToken({ jti: 'jti-journal' });
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(token), 'x-api-key': undefined, 'x-request-id': 'trace-1' } });
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal')).body;
    expect(entry).toEqual({
      id: 'j-000001',
      requestId: 'trace-1',
      time: '2026-11-21T10:00:00.000Z',
      direction: 'inbound',
      method: 'POST',
      path: '/v2/order/refund',
      query: {},
      locationId: 'loc-std-001',
      partner: 'demo-pos',
      token: {
        header: { alg: 'HS256', typ: 'JWT' },
        claims: { sub: 'loc-std-001', jti: 'jti-journal', nbf: NOW_S - 10, exp: NOW_S + 600, iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' },
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      request: {
        headers: expect.objectContaining({ authorization: expect.stringMatching(/^Bearer \[redacted sha256:[0-9a-f]{16}\]$/), 'x-service-locationid': 'loc-std-001' }),
        body: { ExternalId: 'POS-STD-1001' },
        bodyBytes: 29,
      },
      response: { status: 200, headers: expect.objectContaining({ 'x-sandbox-findings': '1', 'x-request-id': 'trace-1' }) },
      latencyMs: 0,
      findings: [
        { code: 'API_KEY_HEADER_MISSING', section: '§5 migration notes', message: 'header x-api-key is missing; the v2 migration notes say every request carries it' },
      ],
    });
  });

  it('journals rejected calls too, with the error body and the claims of a token that failed', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${posToken({ iss: 'other-pos' })}` } });
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal')).body;
    expect(entry.response.status).toBe(401);
    expect(entry.response.body.errors[0].message).toBe("token iss is 'other-pos' but must be the POS name 'demo-pos' (§5)");
    expect(entry.token.claims.iss).toBe('other-pos');
    expect(entry.partner).toBeUndefined();
  });

  it('never holds the key, a token or a signature, in the journal or in the HAR', async () => {
    const sandbox = await testSandbox();
    const token = posToken();
    const signature = token.split('.')[2]!;
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(token), 'x-api-key': PARTNER.nonProdKey } });
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'POS-STD-1002', Note: `key ${PARTNER.nonProdKey} token ${token}` }) });
    await postRefund(sandbox.app, { path: `/v2/order/refund?api_key=${PARTNER.nonProdKey}&t=${token}` });
    await postRefund(sandbox.app, { headers: { Authorization: `Bearer ${posToken({}, 'a-wrong-key-0123456789abcdef012345')}` } });

    const journal = JSON.stringify((await request(sandbox.app).get('/_sandbox/journal')).body);
    const har = JSON.stringify((await request(sandbox.app).get('/_sandbox/journal.har')).body);
    expect(journal).toContain('"ExternalId":"POS-STD-1002"');
    for (const text of [journal, har]) {
      expect(text).not.toContain(PARTNER.nonProdKey);
      expect(text).not.toContain(token);
      expect(text).not.toContain(signature);
      expect(text).toContain('[redacted]');
    }
  });

  it('filters by path, status, location and since, newest first, with a limit', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app, { path: '/order/refund' });
    sandbox.clock.advance(1000);
    await postRefund(sandbox.app, { headers: { Authorization: undefined } });
    sandbox.clock.advance(1000);
    await postRefund(sandbox.app, { path: '/v1/pos/openapi/order/refund', headers: { 'x-service-locationid': 'loc-kiosk-001', Authorization: `Bearer ${posToken({ sub: 'loc-kiosk-001' })}` } });
    const ids = async (query: string) => (await request(sandbox.app).get(`/_sandbox/journal${query}`)).body.map((e: { id: string }) => e.id);
    expect(await ids('')).toEqual(['j-000003', 'j-000002', 'j-000001']);
    expect(await ids('?status=401')).toEqual(['j-000002']);
    expect(await ids('?status=2xx')).toEqual(['j-000003', 'j-000001']);
    expect(await ids('?location=loc-kiosk-001')).toEqual(['j-000003']);
    expect(await ids('?path=/v1/pos/openapi')).toEqual(['j-000003']);
    expect(await ids('?since=2026-11-21T10:00:01Z')).toEqual(['j-000003', 'j-000002']);
    expect(await ids('?limit=1')).toEqual(['j-000003']);
    expect(await ids('?after=j-000001')).toEqual(['j-000003', 'j-000002']);
    expect(await ids('?after=j-000003')).toEqual([]);
  });

  it('lists what came after an id even when a slow request, started earlier, landed after newer ones', () => {
    const journal = new Journal();
    const [slow, quick, newest] = [journal.nextId(), journal.nextId(), journal.nextId()];
    const entry = (id: string) => ({ id, path: '/v2/order/refund', response: { status: 200 } }) as JournalEntry;
    journal.add(entry(quick));
    journal.add(entry(newest));
    journal.add(entry(slow));
    expect(journal.list({ after: quick }).map((e) => e.id)).toEqual([newest]);
    expect(journal.list({ after: 'j-000000' }).map((e) => e.id)).toEqual([slow, newest, quick]);
    // The page cursor goes by the list's own order, so the slow one does not hide the quick one.
    expect(journal.list({ before: slow, limit: 1 }).map((e) => e.id)).toEqual([newest]);
    expect(journal.list({ before: newest }).map((e) => e.id)).toEqual([quick]);
    expect(journal.list({ before: quick }).map((e) => e.id)).toEqual([]);
  });

  it('lists only the entries with findings (findings=true), or only those without (findings=false), with the other filters', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'CLEAN-1' }) });
    await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: 'EXTRA-1', Amount: 5 }) });
    await postRefund(sandbox.app, { headers: { ...cleanHeaders(posToken()), 'x-api-key': undefined }, body: JSON.stringify({ ExternalId: 'NOKEY-1' }) });
    await request(sandbox.app).get('/_sandbox/health');
    const listed = async (query: string) =>
      ((await request(sandbox.app).get(`/_sandbox/journal${query}`).expect(200)).body as Array<{ request: { body: { ExternalId: string } }; findings: Array<{ code: string }> }>).map(
        (entry) => `${entry.request.body.ExternalId}: ${entry.findings.map((found) => found.code).join(',') || 'none'}`,
      );
    expect(await listed('?findings=true')).toEqual(['NOKEY-1: API_KEY_HEADER_MISSING', 'EXTRA-1: UNKNOWN_FIELD']);
    expect(await listed('?findings=false')).toEqual(['CLEAN-1: none']);
    expect(await listed('?findings=true&limit=1')).toEqual(['NOKEY-1: API_KEY_HEADER_MISSING']);
    const har = (await request(sandbox.app).get('/_sandbox/journal.har?findings=true').expect(200)).body as { log: { entries: Array<{ _findings: unknown[] }> } };
    expect(har.log.entries.map((entry) => entry._findings.length)).toEqual([1, 1]);
  });

  it.each([
    ['?status=teapot', "status must be a status code (401) or a class (4xx), got 'teapot'"],
    ['?since=yesterday', "since must be an ISO time or milliseconds since the epoch, got 'yesterday'"],
    ['?limit=0', 'limit must be a whole number from 1 to 1000 (the largest page), got \'0\'; follow the Link rel="next" header for the rest'],
    ['?before=last', "before must be a journal id such as j-000042, got 'last'"],
    ['?after=42', "after must be a journal id such as j-000042, got '42'"],
    ['?loc=x', "unknown query parameter 'loc'; this endpoint takes path, status, location, since, after, before, limit, direction, order, fault, findings"],
    ['?findings=yes', "findings must be true (entries with a finding) or false (entries with none), got 'yes'"],
    ['?findings=', "findings must be true (entries with a finding) or false (entries with none), got ''"],
  ])('answers 400 INVALID_REQUEST for %s', async (query, message) => {
    const sandbox = await testSandbox();
    const response = await request(sandbox.app).get(`/_sandbox/journal${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [{ code: 'INVALID_REQUEST', message }] });
  });

  it('keeps only the last --journal-limit entries', async () => {
    const sandbox = await testSandbox({ journalLimit: 3 });
    for (let i = 0; i < 5; i++) await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: `X-${i}` }) });
    const entries = (await request(sandbox.app).get('/_sandbox/journal')).body;
    expect(entries.map((e: { request: { body: { ExternalId: string } } }) => e.request.body.ExternalId)).toEqual(['X-4', 'X-3', 'X-2']);
    expect((await request(sandbox.app).get('/_sandbox/health')).body.journal).toEqual({ entries: 3, limit: 3, bytes: expect.any(Number), byteLimit: 268_435_456 });
  });

  it('names the entry in x-sandbox-journal-id, serves it alone, and is clearable', async () => {
    const sandbox = await testSandbox();
    const response = await postRefund(sandbox.app);
    const id = response.headers['x-sandbox-journal-id'];
    expect((await request(sandbox.app).get(`/_sandbox/journal/${id}`)).body.id).toBe(id);
    expect((await request(sandbox.app).delete('/_sandbox/journal')).body).toEqual({ cleared: true });
    const gone = await request(sandbox.app).get(`/_sandbox/journal/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ errors: [{ code: 'NOT_FOUND', message: `no journal entry '${id}'; it may have been dropped (the journal keeps 5000)` }] });
  });

  it('exports HAR 1.2, oldest first, with the request and response bodies', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app);
    await postRefund(sandbox.app, { body: '{}' });
    const har = (await request(sandbox.app).get('/_sandbox/journal.har')).body;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('pos-sandbox');
    expect(har.log.entries).toHaveLength(2);
    const [ok, bad] = har.log.entries;
    expect(ok.request).toMatchObject({ method: 'POST', httpVersion: 'HTTP/1.1', postData: { mimeType: 'application/json', text: '{"ExternalId":"POS-STD-1001"}' } });
    expect(ok.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/order\/refund$/);
    expect(ok.response).toMatchObject({ status: 200, statusText: 'OK', content: { size: 0 } });
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.response.content.text).errors[0].code).toBe('INVALID_PAYLOAD');
    expect(ok).toHaveProperty('timings.wait');
    expect(ok.startedDateTime).toBe('2026-11-21T10:00:00.000Z');
  });
});
