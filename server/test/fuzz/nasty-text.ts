/**
 * Arbitraries of hostile JSON, built as text so that a body can be anything a client could send: odd strings and
 * numbers, keys such as __proto__ (twice), nesting 20,000 deep (built with repeat, never by recursion), strings
 * of a megabyte, and bytes that are not UTF-8.
 */
import fc from 'fast-check';

/** Strings a parser, a log line or a renderer may choke on. */
export const ODD_STRINGS = [
  '', ' ', '\t\n\r', '\u0000', 'a\u0000b', '\u202eevil\u202c', '\u200f\u05e9\u05dc\u05d5\u05dd', '💥', '👨‍👩‍👧‍👦', '\ufeff', '\ud800', '\udfff',
  'a\ud800b', '\udc00\ud800', '\u2028\u2029', '\u3000', 'e\u0301', 'ＰＯＳ', '%00', '%s%n%x', '../../etc/passwd', '<script>alert(1)</script>',
  "' OR 1=1 --", '${jndi:ldap://x/a}', '{{7*7}}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'null', 'undefined',
  'NaN', '-0', '1e309', ' POS-STD-1001', 'POS-STD-1001\u0000', 'loc-std-001 ', 'LOC-STD-001',
];

/** Object keys worth sending: prototype names, the interface's own fields in wrong case, blanks. */
export const ODD_KEYS = [
  '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'ExternalId', 'externalId', 'EXTERNALID', 'external_id',
  'Status', 'Reason', 'LocationId', 'Items', 'Id', 'Name', 'Type', 'Prices', 'Price', 'ServiceType', 'Service', 'Variations', 'Modifiers',
  '', ' ', '\u0000', '💥', 'a.b', '$ref', 'errors',
];

/** Number literals JSON allows but a double does not hold, or holds oddly. */
export const NUMBER_TEXTS = [
  '0', '-0', '1', '-1', '1.5', '0.1', '0.30000000000000004', '1e309', '-1e309', '1e-400', '4.9e-324', '9007199254740993',
  '123456789012345678901234567890', '1E2', '1.0', '11.50', '2147483648', '-2147483649', '1e21', '1e100', '1150', '-1150',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/**
 * fc.string({ unit: 'binary', maxLength: 12 }), built as fast-check builds it: any code point but a surrogate, and
 * fast-check's own slices (its dangerous strings of at most 12 characters, in its order). Built by hand because
 * fc.string makes a map of all 1.1 million code points to find those slices, 1.35 s of CPU in each of the three
 * fuzz files that import this one. With fast-check 4.10, for any seed it gives the very same strings and shrinks
 * them the same way (compared over 20,000 samples of each of four seeds).
 */
const FAST_CHECK_DANGEROUS = ['__proto__', 'constructor', 'toString', 'valueOf', 'apply', 'arguments', 'bind', 'call', 'caller', 'length', 'name', 'prototype', 'key', 'ref'];
const SURROGATES = 0xe000 - 0xd800;
const codePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map((index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES));
// fc.string hands fc.array its slices through this constraint, which fast-check's typings leave out.
const withSlices: fc.ArrayConstraints & { experimentalCustomSlices: string[][] } = { maxLength: 12, experimentalCustomSlices: FAST_CHECK_DANGEROUS.map((text) => [...text]) };
const binaryString = fc.array(codePoint, withSlices).map((chars) => chars.join(''));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  binaryString,
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('\u0000', '\u202e', '"', '\\', 'a')), maxLength: 8 }),
);

/** A string that is not blank: what §4.1 calls a present, non-empty ExternalId. */
export const nonBlankString = nastyString.filter((text) => text.trim() !== '');

export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** A JSON string literal; sometimes with raw control characters inside, which JSON does not allow. */
export const stringText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: nastyString.map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: nastyString.map((text) => `"${text}"`) },
);

export const keyText: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...ODD_KEYS), nastyString).map((key) => JSON.stringify(key));

/** Any JSON value as text, up to 3 levels deep, keys repeated at will. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; scalar: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ maxDepth: 3, depthSize: 'small' }, tie('scalar'), tie('array'), tie('object')),
  scalar: fc.oneof(stringText, numberText, fc.constantFrom('true', 'false', 'null')),
  array: fc.array(tie('value'), { maxLength: 4 }).map((values) => `[${values.join(',')}]`),
  object: fc.array(fc.tuple(keyText, tie('value')), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`),
})).value;

/** Text that is not JSON at all, or almost. */
export const brokenJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '{', '}', '[', '{"ExternalId":', '{"ExternalId":"x",}', "{'ExternalId':'x'}", '{ExternalId:"x"}', 'NaN', 'Infinity',
    '\ufeff{"ExternalId":"x"}', '{"ExternalId":"x"} trailing', '{"a":1}{"a":2}', '/* c */{}', 'null', 'true', '"just a string"', '0', '[]', '{}'),
  fc.string({ maxLength: 40 }),
);

export type NestShape = 'array' | 'object' | 'mixed' | 'unclosed';

/** `depth` levels of nesting around `leaf`, built by repeat (a recursive builder would itself overflow). */
export function nestedText(depth: number, shape: NestShape, leaf = '1'): { text: string; recipe: string } {
  switch (shape) {
    case 'array':
      return { text: '['.repeat(depth) + leaf + ']'.repeat(depth), recipe: `'[' × ${depth} + ${leaf} + ']' × ${depth}` };
    case 'object':
      return { text: '{"a":'.repeat(depth) + leaf + '}'.repeat(depth), recipe: `'{"a":' × ${depth} + ${leaf} + '}' × ${depth}` };
    case 'mixed': {
      const half = Math.ceil(depth / 2);
      return { text: '[{"a":'.repeat(half) + leaf + '}]'.repeat(half), recipe: `'[{"a":' × ${half} + ${leaf} + '}]' × ${half}` };
    }
    case 'unclosed':
      return { text: '['.repeat(depth), recipe: `'[' × ${depth} (never closed)` };
  }
}

export const nestDepth: fc.Arbitrary<number> = fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1000, max: 20_000 }));

/** A string of up to ~1.1 MiB of one repeated unit: some fit the 1 MiB body limit, some do not. */
export const hugeString: fc.Arbitrary<{ text: string; recipe: string }> = fc
  .record({ length: fc.integer({ min: 1024, max: 1_100_000 }), unit: fc.constantFrom('a', 'é', '💥', '\u0000', '"', '\\', ' ', '\ud800') })
  .map(({ length, unit }) => ({ text: unit.repeat(Math.ceil(length / unit.length)), recipe: `${JSON.stringify(unit)} × ${Math.ceil(length / unit.length)}` }));

/** Byte sequences that are not UTF-8: a stray byte, an overlong NUL, a CESU surrogate, a cut sequence, beyond U+10FFFF. */
export const BROKEN_UTF8 = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0xfe, 0xfe]];

/** `arb` one time in `oneIn`, else `nil` (fc.option's freq counts the other way: nil one time in freq). Shrinks to `nil`. */
export function oneTimeIn<T, N>(oneIn: number, arb: fc.Arbitrary<T>, nil: N): fc.Arbitrary<T | N> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(nil) }, { weight: 1, arbitrary: arb });
}

/** Where to break a body, one time in five: one of BROKEN_UTF8 at a fraction of its length. */
export const brokenBytes: fc.Arbitrary<[number[], number] | null> = oneTimeIn(5, fc.tuple(fc.constantFrom(...BROKEN_UTF8), fc.double({ min: 0, max: 1, noNaN: true })), null);

/** The text as UTF-8 with the broken bytes (if any) put in. */
export function withBrokenBytes(text: string, broken: [number[], number] | null): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (broken === null) return bytes;
  const [sequence, at] = broken;
  const cut = Math.floor(bytes.length * at);
  return Buffer.concat([bytes.subarray(0, cut), Buffer.from(sequence), bytes.subarray(cut)]);
}

/** An object as text from entries in order (a key may repeat); an entry whose value is undefined is left out. */
export function objectText(entries: Array<[string, string | undefined]>): string {
  return `{${entries.filter(([, value]) => value !== undefined).map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** A field's value: usually the valid one, sometimes any JSON at all, sometimes left out. */
export function fieldText(valid: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: jsonText },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Extra entries to put in an object: odd keys, duplicates of real ones. */
export const extraEntries: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom(...ODD_KEYS), nastyString), jsonText),
  { maxLength: 3 },
);
