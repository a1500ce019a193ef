import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { entryOf, packCapture, pathOfTarget, summaryOf, unpackCapture, type InboundCapture } from './journal-recorder.js';
import { journalSummary, viewToken } from './journal-entry.js';

const KEY = 'the-partner-key-0123456789abcdef';

const capture = (overrides: Partial<InboundCapture> = {}): InboundCapture => ({
  id: 'j-000001',
  requestId: 'req-1',
  started: Date.parse('2026-11-21T10:00:00.000Z'),
  latencyMs: 3,
  method: 'POST',
  target: `/v2/order/refund?api_key=${KEY}&page=2`,
  requestHeaders: { 'x-api-key': KEY, 'content-type': 'application/json' },
  bodyText: '{"ExternalId":"POS-1"}',
  bodyBytes: 22,
  locationId: 'loc-std-001',
  status: 200,
  responseHeaders: { 'x-sandbox-findings': 0 },
  findings: [],
  orderId: '',
  ...overrides,
});

describe('inbound capture', () => {
  it('is kept as one string that builds the very entry the capture builds: bytes answered, headers of every type, findings, a fault', () => {
    const rich = capture({
      responseChunk: Buffer.from('{"errors":[{"code":"UNAUTHORIZED","message":"café ✓"}]}'),
      responseHeaders: { 'x-sandbox-findings': 2, 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json' },
      requestHeaders: { 'x-api-key': KEY, accept: undefined, 'x-forwarded-for': ['1.2.3.4', '5.6.7.8'] },
      findings: [{ code: 'UNKNOWN_FIELD', message: 'Comment is not a field', section: '§2.1' }],
      fault: { rule: 'outage', kind: 'status', source: 'api' },
      tokenDefects: [{ part: 'claims', rule: 'exp', message: 'token expired' }] as unknown as InboundCapture['tokenDefects'],
      error: 'the client closed the connection after 3 ms, before this answer',
    });
    expect(entryOf(unpackCapture(packCapture(rich)), KEY)).toEqual(entryOf(rich, KEY));
    expect(entryOf(unpackCapture(packCapture(capture())), KEY)).toEqual(entryOf(capture(), KEY));
    expect(typeof packCapture(rich)).toBe('string');
  });

  it('keeps the token once, in the Authorization header, and shows it read from there', () => {
    const token = `Bearer ${'e'.repeat(36)}.${'c'.repeat(80)}.${'s'.repeat(43)}`;
    const sent = capture({ requestHeaders: { authorization: token, 'content-type': 'application/json' } });
    const packed = packCapture(sent);
    expect(packed.split(token)).toHaveLength(2);
    expect(entryOf(unpackCapture(packed), KEY).token).toEqual(viewToken(token));
    expect(entryOf(unpackCapture(packed), KEY).token?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('builds the entry with credentials out of the query, the key header hashed and the body parsed', () => {
    const entry = entryOf(capture(), KEY);
    expect(entry.query).toEqual({ api_key: '[redacted]', page: '2' });
    expect(entry.request.headers['x-api-key']).toMatch(/^\[redacted sha256:[0-9a-f]{16}\]$/);
    expect(entry.request.body).toEqual({ ExternalId: 'POS-1' });
    expect(entry.response).toEqual({ status: 200, headers: { 'x-sandbox-findings': '0' } });
    expect(entry).not.toHaveProperty('orderId');
  });

  it('keeps an unanswered call as status 0 with why, and no headers', () => {
    const entry = entryOf(capture({ status: 0, responseHeaders: {}, error: 'connection dropped' }), KEY);
    expect(entry.response).toEqual({ status: 0, headers: {}, error: 'connection dropped' });
  });

  it.each([
    ['an answered call', capture()],
    ['a call the client left', capture({ error: 'the client closed the connection after 5 ms, before this answer', responseChunk: '{"ok":true}' })],
    ['an unanswered call', capture({ status: 0, error: 'held', fault: { rule: 'r1', kind: 'hang', source: 'api' } })],
  ])('summarises %s as the summary of the entry it builds', (_name, captured) => {
    expect(summaryOf(captured)).toEqual(journalSummary(entryOf(captured, KEY)));
  });
});

describe('pathOfTarget', () => {
  it('reads any target as the URL parser does, plain or not, refusing what it refuses', () => {
    const piece = fc.constantFrom('/', '//', 'v2', 'order', 'refund', '.', '..', '%2F', '%41', '?', '#', '\\', ' ', 'é', '_', '-', 'A', '@', ':', 'http:');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), fc.boolean(), (pieces, slashFirst) => {
        const target = `${slashFirst ? '/' : ''}${pieces.join('')}`;
        // Both throw on what the parser refuses (`//`, an empty host): the journal then keeps a bare entry.
        const read = (parse: () => string) => {
          try {
            return parse();
          } catch (error) {
            return `throws ${(error as Error).name}`;
          }
        };
        expect(read(() => pathOfTarget(target))).toBe(read(() => new URL(target, 'http://sandbox.invalid').pathname));
      }),
      { numRuns: 2000 },
    );
  });
});
