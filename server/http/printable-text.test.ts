/* eslint-disable no-control-regex -- control characters are what these tests look for */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { printable, printableDeep, terminalSafe } from './printable-text.js';

/** What the attack run put into ExternalIds and POS replies. */
const HOSTILE = {
  windowTitle: 'POS-1\u001b]0;pwned\u0007',
  clipboard: 'POS-2\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007',
  clear: 'POS-3\u001b[2J\u001b[H',
  fakeLine: 'POS-4\nPASS ORDER-02  An accepted order reaches ACCEPTED',
  overwrite: 'POS-5\rPASS',
  c1: 'POS-6\u009b2J',
  bidi: 'POS-7\u202eDIAP',
};

describe('printable', () => {
  it.each(Object.entries(HOSTILE))('shows the control characters of %s as escapes, on one line', (_name, text) => {
    const shown = printable(text);
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(shown.startsWith(text.slice(0, 5))).toBe(true);
  });

  it('escapes exactly: ESC, newline, C1, bidi', () => {
    expect(printable('a\u001b[2Jb\nc\u009bd\u202ee')).toBe('a\\u001b[2Jb\\u000ac\\u009bd\\u202ee');
  });

  it('escapes the line and paragraph separators and the BOM: some viewers break a line at the first two', () => {
    expect(printable('a\u2028b\u2029c\ufeffd')).toBe('a\\u2028b\\u2029c\\ufeffd');
    expect(terminalSafe('a\u2028b\ufeff')).toBe('a\\u2028b\\ufeff');
  });

  it('leaves printable text as it is, accents, emoji and joiners included', () => {
    for (const text of ['POS-STD-1001', 'Crème brûlée', '👨‍🍳 chef', 'tab\u00a0nbsp']) expect(printable(text)).toBe(text);
  });

  it('keeps JSON meaning the same: an escape in a JSON string is the character it stands for', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(JSON.parse(`"${printable(JSON.stringify(text).slice(1, -1))}"`)).toBe(text);
      }),
    );
  });

  it('walks objects and arrays, keys too', () => {
    expect(printableDeep({ 'k\u001b': ['v\n', 1, null, { x: '\u0007' }] })).toEqual({ 'k\\u001b': ['v\\u000a', 1, null, { x: '\\u0007' }] });
  });
});

describe('terminalSafe', () => {
  it("keeps the sandbox's own colours and line ends, and escapes every other control", () => {
    expect(terminalSafe('\u001b[32mPASS\u001b[39m line\r\n\tnext')).toBe('\u001b[32mPASS\u001b[39m line\r\n\tnext');
    expect(terminalSafe(`x ${HOSTILE.windowTitle} ${HOSTILE.clipboard} ${HOSTILE.clear} ${HOSTILE.c1} ${HOSTILE.bidi}`)).not.toMatch(/\u001b\](0|52)|\u0007|\u001b\[2J|\u001b\[H|\u009b|\u202e/);
  });

  it('leaves no control character but SGR, tab and line ends in anything', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const safe = terminalSafe(text).replace(/\u001b\[[0-9;]*m/g, '');
        expect(safe).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});
