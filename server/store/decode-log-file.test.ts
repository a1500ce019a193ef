import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeLogFile } from './decode-log-file.js';

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
