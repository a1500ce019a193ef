import { describe, expect, it } from '@jest/globals';
import { Journal } from './journal.js';
import type { JournalEntry } from './journal-entry.js';
import { journalSummary } from './journal-entry.js';
import { Redactor, REMEMBERED_SIGNATURES } from './redactor.js';
import { signHs256, validClaims } from '../test/test-identity.js';

const KEY = 'the-partner-key-0123456789abcdef';
const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims(), KEY);
const signature = token.split('.')[2]!;

function entry(id: string, note: string, path = '/v2/order/refund'): JournalEntry {
  return {
    id,
    requestId: `req-${id}`,
    time: '2026-11-21T10:00:00.000Z',
    direction: 'inbound',
    method: 'POST',
    path,
    query: {},
    request: { headers: {}, body: { Note: note }, bodyBytes: 10 },
    response: { status: 200, headers: {} },
    latencyMs: 1,
    findings: [],
  };
}

describe('Journal', () => {
  it('takes back stored entries, oldest first, within its limit, and hands out the ids that follow the newest', () => {
    const journal = new Journal(2, new Redactor(KEY));
    journal.restore([entry('j-000003', 'a'), entry('j-000007', 'b'), entry('j-000009', 'c')]);
    expect(journal.list({}).map((kept) => kept.id)).toEqual(['j-000009', 'j-000007']);
    expect(journal.nextId()).toBe('j-000010');
    // One already kept is not taken twice.
    journal.restore([entry('j-000009', 'c')]);
    expect(journal.size).toBe(2);
  });

  it('drops the oldest entries once their bytes pass the limit, whatever their count', () => {
    const journal = new Journal(1000, new Redactor(KEY), 10_000);
    for (let i = 0; i < 30; i++) {
      const raw = entry(journal.nextId(), 'x'.repeat(900));
      journal.addCaptured(journalSummary(raw), () => raw, 1000);
    }
    expect(journal.sizeBytes).toBeLessThanOrEqual(10_000);
    expect(journal.list({}).map((kept) => kept.id)[0]).toBe('j-000030');
    expect(journal.size).toBeLessThan(11);
  });

  it('pages by count and by bytes: a page stops before the bytes pass the limit, and names the next', () => {
    const journal = new Journal(1000, new Redactor(KEY));
    for (let i = 0; i < 10; i++) {
      const raw = entry(journal.nextId(), 'note');
      journal.addCaptured(journalSummary(raw), () => raw, 1000);
    }
    const ids = (page: { items: JournalEntry[]; next?: string }) => ({ ids: page.items.map((kept) => kept.id), next: page.next });
    expect(ids(journal.page({}, 3, 1_000_000))).toEqual({ ids: ['j-000010', 'j-000009', 'j-000008'], next: 'j-000008' });
    expect(ids(journal.page({}, 100, 2500))).toEqual({ ids: ['j-000010', 'j-000009'], next: 'j-000009' });
    // One entry larger than the limit is still a page of one.
    expect(ids(journal.page({}, 100, 10))).toEqual({ ids: ['j-000010'], next: 'j-000010' });
    expect(ids(journal.page({ before: 'j-000002' }, 100, 1_000_000))).toEqual({ ids: ['j-000001'], next: undefined });
  });

  it('holds the entries asked for however slowly they are redacted: a page is cut by count and bytes, never by time', () => {
    // A redactor that takes 30 ms an entry, as a busy machine might: a page of 5 is still 5, and names the next.
    class SlowRedactor extends Redactor {
      override entry(raw: JournalEntry): JournalEntry {
        const until = performance.now() + 30;
        while (performance.now() < until);
        return super.entry(raw);
      }
    }
    const slow = new Journal(1000, new SlowRedactor(KEY));
    for (let i = 0; i < 8; i++) {
      const raw = entry(slow.nextId(), 'note');
      slow.addCaptured(journalSummary(raw), () => raw, 100);
    }
    const page = slow.page({}, 5, 1_000_000);
    expect(page.items.map((kept) => kept.id)).toEqual(['j-000008', 'j-000007', 'j-000006', 'j-000005', 'j-000004']);
    expect(page.next).toBe('j-000004');
    expect(slow.page({ before: 'j-000004' }, 5, 1_000_000).items.map((kept) => kept.id)).toEqual(['j-000003', 'j-000002', 'j-000001']);
  });

  it('builds an entry only when it is first read, and only once', () => {
    const journal = new Journal(10, new Redactor(KEY));
    let builds = 0;
    const raw = entry(journal.nextId(), 'plain');
    journal.addCaptured(journalSummary(raw), () => {
      builds += 1;
      return raw;
    });
    expect(builds).toBe(0);
    expect(journal.get(raw.id)?.request.body).toEqual({ Note: 'plain' });
    expect(journal.list({})).toHaveLength(1);
    expect(builds).toBe(1);
  });

  it('emits and filters by the redacted summary: a filter cannot find the key the journal hides', () => {
    const journal = new Journal(10, new Redactor(KEY));
    const emitted: unknown[] = [];
    journal.on('added', (summary) => emitted.push(summary));
    journal.add(entry(journal.nextId(), 'x', `/v2/${KEY}`));
    expect(journal.list({ path: KEY })).toEqual([]);
    expect(journal.list({ path: '/v2/[redacted]' })).toHaveLength(1);
    expect(JSON.stringify(emitted)).not.toContain(KEY);
  });

  it('redacts a signature in an unread entry even after the redactor has forgotten it', () => {
    const redactor = new Redactor(KEY);
    const journal = new Journal(10, redactor);
    redactor.remember(`Bearer ${token}`);
    const id = journal.nextId();
    journal.add(entry(id, `s=${signature}`));
    for (let i = 0; i < REMEMBERED_SIGNATURES; i++) redactor.remember(`a.b.${String(i).padStart(20, 'x')}`);
    expect(redactor.text(signature)).toBe(signature);
    expect(journal.get(id)?.request.body).toEqual({ Note: 's=[redacted]' });
  });

  it('keeps a bare entry saying why when building the entry fails', () => {
    const journal = new Journal(10, new Redactor(KEY));
    const raw = entry(journal.nextId(), 'x');
    journal.addCaptured(journalSummary(raw), () => {
      throw new Error(`broken by ${KEY}`);
    });
    expect(journal.get(raw.id)?.response).toEqual({ status: 200, headers: {}, error: "the journal could not keep this request's details: broken by [redacted]" });
  });
});

describe('Redactor.beforeForgetting', () => {
  it('is told before the oldest signature is forgotten, while it is still redacted', () => {
    const redactor = new Redactor(KEY);
    redactor.remember(`Bearer ${token}`);
    const seen: string[] = [];
    redactor.beforeForgetting(() => seen.push(redactor.text(signature)));
    for (let i = 0; i < REMEMBERED_SIGNATURES - 1; i++) redactor.remember(`a.b.${String(i).padStart(20, 'x')}`);
    expect(seen).toEqual([]);
    redactor.remember(`a.b.${'y'.repeat(20)}`);
    expect(seen).toEqual(['[redacted]']);
  });
});
