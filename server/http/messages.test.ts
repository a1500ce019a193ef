import { describe, expect, it } from '@jest/globals';
import { describeValue, pointerToPath, schemaMessages, printable, printableDeep, terminalSafe } from './messages.js';
import { Ajv } from 'ajv';
import fc from 'fast-check';

describe('describeValue', () => {
  it.each([
    [null, 'null'],
    ['x', 'string "x"'],
    [Number.POSITIVE_INFINITY, 'number Infinity'],
    [Number.NEGATIVE_INFINITY, 'number -Infinity'],
    [{ toString: 'HS256' }, 'object {"toString":"HS256"}'],
    [[1, 2], 'array [1,2]'],
    ['y'.repeat(50), 'string'],
  ])('%p is %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('describes a value too deep to print by its type', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(describeValue(deep)).toBe('array');
  });
});

describe('pointerToPath', () => {
  it.each([
    ['', 'body', 'body'],
    ['/Items/2/Prices/0/Price', 'body', 'Items[2].Prices[0].Price'],
    ['/2/id', '$', '[2].id'],
    ['/weird key/a~1b', '$', '["weird key"]["a/b"]'],
  ])('turns %j into %s', (pointer, root, path) => {
    expect(pointerToPath(pointer, root)).toBe(path);
  });
});

describe('schemaMessages', () => {
  const ajv = new Ajv({ allErrors: true, verbose: true });
  const validate = ajv.compile({
    type: 'object',
    required: ['Items'],
    additionalProperties: false,
    properties: {
      Items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['Id', 'Price'],
          properties: {
            Id: { type: 'string', minLength: 1 },
            Price: { type: 'integer', minimum: 0 },
            Type: { enum: ['Item'] },
          },
        },
      },
    },
  });

  it('names every problem with its JSON path', () => {
    validate({ Items: [{ Id: '', Price: 12.5 }, { Price: -1, Type: 'Combo' }], Extra: true });
    expect(schemaMessages(validate.errors, 'body')).toEqual([
      'Extra is not an allowed field',
      'Items[0].Id must not be empty',
      'Items[0].Price must be a whole number, got number 12.5',
      'Items[1].Id is required',
      'Items[1].Price must be 0 or more, got number -1',
      'Items[1].Type must be one of "Item", got string "Combo"',
    ]);
  });

  it('names the root when the document itself is wrong', () => {
    validate([]);
    expect(schemaMessages(validate.errors, 'body')).toEqual(['body must be an object, got array []']);
  });

  it('says how long a text may be, and how many items a list may hold', () => {
    const bounded = new Ajv({ allErrors: true, verbose: true }).compile({
      type: 'object',
      properties: { Name: { type: 'string', minLength: 2, maxLength: 3 }, Tags: { type: 'array', maxItems: 1 } },
    });
    bounded({ Name: 'long', Tags: ['a', 'b'] });
    expect(schemaMessages(bounded.errors, 'body')).toEqual(['Name must be at most 3 characters long', 'Tags must have at most 1 items, got 2']);
    bounded({ Name: 'x' });
    expect(schemaMessages(bounded.errors, 'body')).toEqual(['Name must be at least 2 characters long']);
  });
});

/* eslint-disable no-control-regex -- control characters are what these tests look for */

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
