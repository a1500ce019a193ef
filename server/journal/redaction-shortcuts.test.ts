import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { REDACTED, redactJwtSignatures, scrubText, scrubValue } from './redaction.js';
import { signHs256, validClaims } from '../test/test-identity.js';
import { journalSummary, scrubSummary, type SummarySource } from './journal-entry.js';

const KEY = 'the-partner-key-0123456789abcdef';
const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims(), KEY);
const [header, payload, signature] = token.split('.') as [string, string, string];
const signatures = new Set([signature]);

/** scrubText as it was before it skipped text too short to hold a secret: every search, every time. */
function scrubEverything(text: string): string {
  const escaped = KEY.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // A word of 16 characters or more that is a piece of the key goes whole.
  let out = text.replace(/[^\s/?&=,;:"'<>()[\]{}]{16,}/g, (word) => (KEY.toLowerCase().includes(word.toLowerCase()) ? REDACTED : word));
  out = out.replace(new RegExp(escaped, 'gi'), REDACTED);
  out = redactJwtSignatures(out);
  return out.replace(/[A-Za-z0-9_-]{16,}/g, (run) => (signatures.has(run) ? REDACTED : run));
}

describe('the shortcuts of scrubText (text too short to hold a secret is not searched)', () => {
  it.each([
    ['the key and nothing else', KEY, REDACTED],
    ['the key upper-cased', KEY.toUpperCase(), REDACTED],
    ['a remembered signature alone (43 characters)', signature, REDACTED],
    ['the shortest signed text: 4 characters of JSON, a dot, 16 characters', `${header.slice(0, 4)}.${'s'.repeat(16)}`, `${header.slice(0, 4)}.${REDACTED}`],
    ['a detached JWS', `${header}..${signature}`, `${header}..${REDACTED}`],
  ])('%s is still redacted', (_shape, text, shown) => {
    expect(scrubText(text, [KEY], signatures)).toBe(shown);
  });

  it('gives what searching everything gives, for any mix of key, token parts, dots and letters', () => {
    const piece = fc.constantFrom(KEY, KEY.toUpperCase(), header, payload, signature, '.', '..', 'eyJ', 'a', 'x'.repeat(16), ' ', '-', '_');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.nat(40), (pieces, cut) => {
        const text = pieces.join('');
        for (const sample of [text, text.slice(cut), text.slice(0, cut)]) expect(scrubText(sample, [KEY], signatures)).toBe(scrubEverything(sample));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('scrubValue', () => {
  it('copies arrays, nested objects and keys, redacting each string', () => {
    const value = { list: [1, null, { [KEY]: `Bearer ${token}` }], nested: { deep: [[KEY]] }, flag: true };
    expect(scrubValue(value, [KEY], signatures)).toEqual({
      list: [1, null, { [REDACTED]: `Bearer ${header}.${payload}.${REDACTED}` }],
      nested: { deep: [[REDACTED]] },
      flag: true,
    });
  });
});

describe('scrubSummary (a journal summary redacted field by field)', () => {
  it('gives what the generic walk gives, for any summary journalSummary can make', () => {
    const text = fc.oneof(
      fc.constantFrom(KEY, `Bearer ${token}`, signature, `/v2/menu/${KEY}`, `${header}.${payload}.${signature}`, ''),
      fc.string({ maxLength: 30 }),
    );
    const maybe = fc.option(text, { nil: undefined });
    // The id, time, method and finding codes are the sandbox's or Node's, never a client's text.
    const source = fc.record({
      id: fc.nat(999_999).map((n) => `j-${String(n).padStart(6, '0')}`),
      time: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((date) => date.toISOString()),
      direction: fc.constantFrom('inbound' as const, 'outbound' as const),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      latencyMs: fc.integer({ min: 0, max: 60_000 }),
      path: text,
      locationId: maybe,
      orderId: maybe,
      requestId: text,
      response: fc.record({ status: fc.integer({ min: 0, max: 599 }), error: maybe }),
      findings: fc.array(fc.record({ code: fc.constantFrom('DUPLICATE_REFUND', 'JTI_REUSED', 'MISSING_API_KEY') }), { maxLength: 3 }),
      fault: fc.option(fc.record({ rule: text }), { nil: undefined }),
    });
    fc.assert(
      fc.property(source, (entry) => {
        const summary = journalSummary(entry as SummarySource);
        const scrub = (value: string) => scrubText(value, [KEY], signatures);
        expect(scrubSummary(summary, scrub)).toStrictEqual(scrubValue(summary, [KEY], signatures));
      }),
      { numRuns: 1000 },
    );
  });
});
