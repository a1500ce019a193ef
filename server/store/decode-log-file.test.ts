import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeLogFile, readRefundLine } from './decode-log-file.js';
import { isDeepStrictEqual } from 'node:util';
import { decidedRecord, type RefundRecord } from '../refunds/refund-rules.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { KeptRecord } from './log-file-tally.js';
import { RefundProcessor } from '../refunds/refund-processor.js';
import { SandboxStore } from './sandbox-store.js';
import { memoryStorage } from './segment-storage.js';
import { STORE_CLOCK, storeFixtures } from '../test/stored-state.js';
import { refundRecordSchema, STORED_AJV_OPTIONS } from './stored-state-schemas.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('decodeLogFile', () => {
  it('reads one record a line, in order', () => {
    expect(decodeLogFile(bytes('{"id":"a"}\n{"id":"b","n":1}\n{"id":"a","n":2}\n'))).toEqual({
      ok: true,
      records: [{ id: 'a' }, { id: 'b', n: 1 }, { id: 'a', n: 2 }],
      unfinishedBytes: 0,
      parsed: [0, 1, 2],
    });
  });

  it('reads an empty file as no records', () => {
    expect(decodeLogFile(bytes(''))).toEqual({ ok: true, records: [], unfinishedBytes: 0, parsed: [] });
  });

  it('leaves out a last line cut short, and counts its bytes', () => {
    expect(decodeLogFile(bytes('{"id":"a"}\n{"id":"b","n'))).toEqual({ ok: true, records: [{ id: 'a' }], unfinishedBytes: 12, parsed: [0] });
  });

  it('leaves out a last line without its newline even when it parses: its write never finished', () => {
    expect(decodeLogFile(bytes('{"id":"a"}\n{"id":"b"}'))).toEqual({ ok: true, records: [{ id: 'a' }], unfinishedBytes: 10, parsed: [0] });
  });

  it('takes what its line reader knows as it gives it, parses the rest, and names those for the check', () => {
    const known = (line: string) => (line.startsWith('{"k":') ? { read: line } : undefined);
    expect(decodeLogFile(bytes('{"k":1}\n{"id":"b"}\n{"k":2}\n{"id":"d"}\n'), known)).toEqual({
      ok: true,
      records: [{ read: '{"k":1}' }, { id: 'b' }, { read: '{"k":2}' }, { id: 'd' }],
      unfinishedBytes: 0,
      parsed: [1, 3],
    });
  });

  it('still refuses a broken line the reader does not know, by its number', () => {
    const known = (line: string) => (line === '{"k":1}' ? {} : undefined);
    expect(decodeLogFile(bytes('{"k":1}\n{"k":1}\n{"k":\n'), known)).toEqual({ ok: false, problem: 'line 3 is not a JSON record (byte offset 16)' });
  });

  it.each([
    ['a broken line in the middle', '{"id":"a"}\n{"id":\n{"id":"c"}\n', 'line 2 is not a JSON record (byte offset 11)'],
    ['an empty line', '{"id":"a"}\n\n', 'line 2 is not a JSON record (byte offset 11)'],
    ['a line of text', 'hello SECRET\n', 'line 1 is not a JSON record (byte offset 0)'],
    ['a byte that is not UTF-8', '{"id":"caf\xe9"}\n', 'holds 1 byte that is not UTF-8 text (the first at byte offset 10), so it is not a record log'],
  ])('refuses %s without quoting it', (_name, text, problem) => {
    const decoded = decodeLogFile(_name.includes('UTF-8') ? Buffer.from(text, 'latin1') : bytes(text));
    expect(decoded).toEqual({ ok: false, problem });
  });

  it('reads the same records whether a file is ASCII alone (copied as Latin-1) or not (decoded as UTF-8)', () => {
    const texts = fc.oneof(fc.string({ unit: 'binary-ascii' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(fc.record({ id: texts, note: texts }), { maxLength: 8 }), (records) => {
        const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
        // The records as JSON.parse gives them back (a lone surrogate is written as an escape, and read back as one).
        expect(decodeLogFile(bytes(text))).toEqual({ ok: true, records: records.map((record) => JSON.parse(JSON.stringify(record)) as unknown), unfinishedBytes: 0, parsed: records.map((_, i) => i) });
      }),
    );
  });

  it('refuses a byte that is not UTF-8 in a file otherwise ASCII', () => {
    expect(decodeLogFile(Buffer.concat([bytes('{"id":"a"}\n{"id":"'), Buffer.from([0x80]), bytes('"}\n')]))).toEqual({
      ok: false,
      problem: 'holds 1 byte that is not UTF-8 text (the first at byte offset 18), so it is not a record log',
    });
  });

  it('counts byte offsets in bytes, not characters', () => {
    expect(decodeLogFile(bytes('{"id":"é"}\n{x\n'))).toEqual({ ok: false, problem: 'line 2 is not a JSON record (byte offset 12)' });
  });
});

const validRefund = compileSchema<RefundRecord>(() => newAjv(STORED_AJV_OPTIONS), STORED_AJV_OPTIONS, refundRecordSchema);
const viewOf = (record: RefundRecord) => ({ id: record.id, externalId: record.externalId, locationId: record.locationId, status: record.status, acceptedAt: record.acceptedAt });

/** A refund as the processor makes it when it accepts one: these keys, in this order. */
const accepted: RefundRecord = {
  id: 'rf-0c6f7a4e-2b1d-4a8e-9f3c-5d7e1a2b3c4d',
  externalId: 'POS-STD-1001',
  locationId: 'loc-std-001',
  partner: 'demo-pos',
  requestId: '9b2f4c1e-7d3a-4e8b-a6f0-1c2d3e4f5a6b',
  journalId: 'j-000042',
  status: 'PENDING',
  acceptedAt: '2026-11-26T08:27:11.516Z',
  dueAt: '2026-11-26T08:27:12.516Z',
};

/**
 * The one property that makes skipping JSON.parse and the schema safe: whatever the reader takes is a record the
 * schema accepts, and the view it reads is what JSON.parse would give. Checked on any line, not only the sandbox's.
 * Gives what is wrong, if anything (plain checks: a property runs thousands of times).
 */
function unsafe(line: string): string | undefined {
  const read = readRefundLine(line);
  if (read === undefined) return undefined;
  if (read.line !== line) return 'the text kept is not the line';
  let parsed: RefundRecord;
  try {
    parsed = JSON.parse(line) as RefundRecord;
  } catch {
    return 'taken, but not JSON';
  }
  if (!validRefund(parsed)) return 'taken, but the schema refuses it';
  if (!isDeepStrictEqual(read.view, viewOf(parsed))) return `read ${JSON.stringify(read.view)}, JSON.parse gives ${JSON.stringify(viewOf(parsed))}`;
  return undefined;
}

describe('readRefundLine', () => {
  it.each([
    ['accepted (PENDING)', accepted],
    ['processed', decidedRecord(accepted, { status: 'PROCESSED', detail: 'order ord-std-0001 refunded', orderId: 'ord-std-0001' }, '2026-11-26T08:27:12.520Z')],
    ['failed', decidedRecord(accepted, { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail: "no order with ExternalId 'X' at location 'Y'" }, '2026-11-26T08:27:12.521Z')],
  ])('reads a refund %s as the processor writes it: its view and its text', (_state, record) => {
    const line = JSON.stringify(record);
    expect(readRefundLine(line)).toEqual(new KeptRecord(viewOf(record), line));
    expect(unsafe(line)).toBeUndefined();
  });

  it("reads the lines of refunds the real processor accepts and decides, a fixture's location or not", async () => {
    const store = await SandboxStore.open(memoryStorage(), storeFixtures, STORE_CLOCK);
    const processor = new RefundProcessor({ store, locationIds: new Set(['loc-std-001']), clock: STORE_CLOCK, newId: () => `id-${store.refunds.size}`, delayMs: 0, setTimer: () => () => undefined });
    // The header's text, as a request brings it: a string of its own, not the fixtures' own.
    const known = await processor.accept({ externalId: 'POS-STD-1001', locationId: ['loc', 'std', '001'].join('-'), partner: 'demo-pos', requestId: 'r-1', journalId: 'j-000001' });
    const unknown = await processor.accept({ externalId: 'POS-STD-1002', locationId: 'loc-nowhere', partner: 'demo-pos', requestId: 'r-2', journalId: 'j-000002' });
    const decided = await processor.runDue();
    for (const record of [known, unknown, ...decided]) {
      const line = JSON.stringify(record);
      expect(readRefundLine(line)).toEqual(new KeptRecord(viewOf(record), line));
    }
    expect(decided.map((record) => record.locationId)).toEqual(['loc-std-001', 'loc-nowhere']);
  });

  it.each([
    ['keys in another order', JSON.stringify(Object.fromEntries(Object.entries(accepted).reverse()))],
    ['a key the sandbox never writes', JSON.stringify({ ...accepted, note: 'x' })],
    ['a key missing', JSON.stringify({ ...accepted, journalId: undefined })],
    ['an escaped character in a string', JSON.stringify({ ...accepted, externalId: 'POS "quoted"' })],
    ['a unicode escape the writer would not use', JSON.stringify(accepted).replace('POS-STD-1001', 'POS-\\u0053TD-1001')],
    ['a time without milliseconds', JSON.stringify({ ...accepted, acceptedAt: '2026-11-26T08:27:11Z' })],
    ['a status the schema does not know', JSON.stringify({ ...accepted, status: 'DONE' })],
    ['an empty ExternalId', JSON.stringify({ ...accepted, externalId: '' })],
    ['spaces between the tokens', JSON.stringify(accepted, null, 1).replace(/\n/g, '')],
    ['a number where a string goes', JSON.stringify(accepted).replace('"partner":"demo-pos"', '"partner":7')],
    ['a second record after the first', `${JSON.stringify(accepted)}${JSON.stringify(accepted)}`],
  ])('leaves a line with %s to JSON.parse and the schema', (_shape, line) => {
    expect(readRefundLine(line)).toBeUndefined();
  });

  it('reads ids and times as they are, whatever characters they hold that need no escape', () => {
    const record = { ...accepted, externalId: 'ÉCHO 🍜 ‮ x', locationId: 'loc\u2028sep', partner: '' };
    const line = JSON.stringify(record);
    expect(readRefundLine(line)?.view).toEqual(viewOf(record));
    expect(unsafe(line)).toBeUndefined();
  });

  it('is safe on any record the processor could write, and reads every one whose strings need no escape', () => {
    // Mostly plain text (the common case, which must be read), some of any UTF-16 unit: quotes, backslashes, control
    // characters, lone surrogates. (fast-check's own 'binary' unit spends 0.7 s building its tables.)
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.oneof({ arbitrary: fc.string({ maxLength: 12 }), weight: 3 }, fc.array(anyUnit, { maxLength: 6 }).map((units) => units.join('')));
    const time = fc.integer({ min: Date.UTC(2000, 0), max: Date.UTC(2100, 0) }).map((ms) => new Date(ms).toISOString());
    const record = fc.record({
      id: text.filter((s) => s.length > 0),
      externalId: text,
      locationId: text,
      partner: text,
      requestId: text,
      journalId: text,
      status: fc.constantFrom('PENDING', 'PROCESSED', 'FAILED') as fc.Arbitrary<RefundRecord['status']>,
      acceptedAt: time,
      dueAt: time,
    });
    const decision = fc.option(
      fc.record({ status: fc.constantFrom('PROCESSED', 'FAILED') as fc.Arbitrary<'PROCESSED' | 'FAILED'>, reason: fc.option(fc.constantFrom('ORDER_NOT_FOUND', 'ALREADY_REFUNDED') as fc.Arbitrary<'ORDER_NOT_FOUND'>, { nil: undefined }), detail: text, orderId: fc.option(text.filter((s) => s.length > 0), { nil: undefined }) }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(record, decision, time, (base, decided, at) => {
        const written = decided === undefined ? base : decidedRecord(base, decided, at);
        const line = JSON.stringify(written);
        // Taken exactly when the schema holds and no string needed an escape.
        const plain = !line.includes('\\') && validRefund(JSON.parse(line));
        return unsafe(line) === undefined && (readRefundLine(line) !== undefined) === plain;
      }),
      { numRuns: 1000 },
    );
  });

  it('is safe on any line one edit away from a line the sandbox wrote (a hand edit, a torn byte)', () => {
    const line = JSON.stringify(decidedRecord(accepted, { status: 'FAILED', reason: 'ORDER_NOT_FOUND', detail: 'no order' }, '2026-11-26T08:27:12.521Z'));
    const edit = fc.record({ at: fc.nat(line.length), drop: fc.nat(3), insert: fc.oneof(fc.constantFrom('"', '\\', ',', '}', ':', ' ', '\u0000', '1', 'Z', '.'), fc.string({ maxLength: 3 })) });
    fc.assert(
      fc.property(edit, ({ at, drop, insert }) => {
        const edited = line.slice(0, at) + insert + line.slice(at + drop);
        const problem = unsafe(edited);
        if (problem !== undefined) throw new Error(`${problem}: ${edited}`);
      }),
      { numRuns: 3000 },
    );
  });
});
