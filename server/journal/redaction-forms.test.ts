/** Every form the third attack run sent a secret in, redacted in the form it came in. */
import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { deflateSync, gzipSync } from 'node:zlib';
import { REDACTED } from './redaction.js';
import { Redactor } from './redactor.js';
import { signHs256, validClaims } from '../test/test-identity.js';

const KEY = 'SANDBOX-ONLY-nonprod-key-acme-3f9c2a7e5b1d4c8a';
const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims(), KEY);
const [header, payload, signature] = token.split('.') as [string, string, string];
const standard = (part: string) => Buffer.from(part, 'base64url').toString('base64');
const redactor = () => {
  const made = new Redactor(KEY);
  made.remember(`Bearer ${token}`);
  return made;
};

/** RFC 4648 base32, written here so the test does not share the sandbox's decoder. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  const chars = (bits.match(/.{1,5}/g) ?? []).map((group) => alphabet[parseInt(group.padEnd(5, '0'), 2)]).join('');
  return chars.padEnd(Math.ceil(chars.length / 8) * 8, '=');
}

/** The key gzipped, in standard base64 with at least one slash, each slash percent-encoded as a path carries it. */
function slashedGzip(): string {
  for (let pad = 0; ; pad++) {
    const blob = gzipSync(`note${' '.repeat(pad)}: ${KEY}`).toString('base64');
    if (blob.includes('/')) return blob.replaceAll('/', '%2F');
  }
}

/** Does the text still hold the key or the signature, in any letter case, or the core of either? */
const leaks = (text: string) => [KEY, signature, KEY.slice(8, 30), signature.slice(5, 30)].some((secret) => text.toLowerCase().includes(secret.toLowerCase()));

describe('a secret in a text, in every encoding', () => {
  it.each([
    ['JSON escapes in a body that is not JSON', `{"k":"${KEY.replaceAll('-', '\\u002d')}" oops`, `{"k":"${REDACTED}" oops`],
    ['a token with its dots as JSON escapes', `{"t":"${header}\\u002e${payload}\\u002e${signature}"`, `{"t":"${header}\\u002e${payload}\\u002e${REDACTED}"`],
    ['HTML entities', `k=${KEY.replaceAll('-', '&#45;')}`, `k=${REDACTED}`],
    ['a token with its dots as entities', `${header}&#46;${payload}&#x2e;${signature}`, `${header}&#46;${payload}&#x2e;${REDACTED}`],
    ['a zero-width space inside the key', `key: ${KEY.slice(0, 10)}\u200b${KEY.slice(10)}`, `key: ${REDACTED}`],
    ['a soft hyphen and a word joiner inside the key', `${KEY.slice(0, 5)}\u00ad${KEY.slice(5, 9)}\u2060${KEY.slice(9)}!`, `${REDACTED}!`],
    ['the key split across two query parameters', `/v2/order/refund?a=${KEY.slice(0, 20)}&b=${KEY.slice(20)}`, `/v2/order/refund?a=${REDACTED}&b=${REDACTED}`],
    ['a token whose parts are standard base64, padded', `${standard(header)}.${standard(payload)}.${standard(signature)}`, `${standard(header)}.${standard(payload)}.${REDACTED}`],
    ['the seen signature as hex', `sig=${Buffer.from(signature, 'base64url').toString('hex')}`, `sig=${REDACTED}`],
    ['the seen signature as hex, upper case', `sig=${Buffer.from(signature, 'base64url').toString('hex').toUpperCase()}`, `sig=${REDACTED}`],
    ['the seen signature as standard base64', `sig=${Buffer.from(signature, 'base64url').toString('base64')}`, `sig=${REDACTED}`],
    ['the key in a base64 blob with other text', `blob=${Buffer.from(`note: ${KEY} end`).toString('base64')}`, `blob=${REDACTED}`],
    ['the key in a base64url blob, one byte off', `blob=${Buffer.from(`xy${KEY}`).toString('base64url')}`, `blob=${REDACTED}`],
    ['the key as hex', `hex=${Buffer.from(KEY).toString('hex')}`, `hex=${REDACTED}`],
    ['a token in a base64 blob', `b=${Buffer.from(`Bearer ${token}`).toString('base64')}`, `b=${REDACTED}`],
    ['the key as \\x escapes', `k=${[...KEY].map((char) => `\\x${char.charCodeAt(0).toString(16)}`).join('')}`, `k=${REDACTED}`],
    ['the key quoted-printable, its hyphens as =2D', `k=${KEY.replaceAll('-', '=2D')}`, `k=${REDACTED}`],
    ['a named entity for its hyphens', `k=${KEY.replaceAll('-', '&hyphen;')}`, `k=${REDACTED}`],
    ['an invisible function application (U+2061) and a BOM inside the key', `${KEY.slice(0, 7)}\u2061${KEY.slice(7, 20)}\ufeff${KEY.slice(20)}`, REDACTED],
    ['the key as base32', `k=${base32(Buffer.from(KEY))}`, `k=${REDACTED}`],
    ['the key in a base32 blob with other text', `k=${base32(Buffer.from(`a note: ${KEY} end`))};`, `k=${REDACTED};`],
    ['the seen signature as base32', `s=${base32(Buffer.from(signature, 'base64url'))}`, `s=${REDACTED}`],
    ['the key as hex with colons', `h=${Buffer.from(KEY).toString('hex').match(/../g)!.join(':')}`, `h=${REDACTED}`],
    ['the seen signature as hex with spaces', `h=${Buffer.from(signature, 'base64url').toString('hex').match(/../g)!.join(' ')} end`, `h=${REDACTED} end`],
    ['the base64 of the key as UTF-16', `u=${Buffer.from(`key ${KEY}`, 'utf16le').toString('base64')}`, `u=${REDACTED}`],
    ['the seen signature after / at the end of a path', `/v2/order/refund/${signature}`, `/v2/order/refund/${REDACTED}`],
    ['the seen signature between two / of a path', `/_sandbox/orders/${signature}/resend`, `/_sandbox/orders/${REDACTED}/resend`],
    ['the key gzipped, then base64', `{"blob":"${gzipSync(`note: ${KEY}`).toString('base64')}"}`, `{"blob":"${REDACTED}"}`],
    ['a token gzipped, then base64url', `z=${gzipSync(`Bearer ${token}`).toString('base64url')} end`, `z=${REDACTED} end`],
    ['the key in a zlib stream, then base64', `d=${deflateSync(`{"key":"${KEY}"}`).toString('base64')}`, `d=${REDACTED}`],
    ['the seen signature in a zlib stream, then hex', `h=${deflateSync(`sig ${signature}`).toString('hex')}`, `h=${REDACTED}`],
    ['a token inside a base32 blob', `b32=${base32(Buffer.from(`auth: Bearer ${token}`))}`, `b32=${REDACTED}`],
    ['a gzip blob as base64url, a segment of a path', `/v2/order/refund/${gzipSync(`note: ${KEY}`).toString('base64url')}`, `/v2/order/refund/${REDACTED}`],
    ['a gzip blob in standard base64 as a path segment, its slashes sent as %2F', `/v2/order/refund/${slashedGzip()}`, `/v2/order/refund/${REDACTED}`],
    ['the key as base32, a segment of a path', `/v2/order/${base32(Buffer.from(KEY))}/refund`, `/v2/order/${REDACTED}/refund`],
    ['a token in base32, lower case and unpadded', `{"n":"${base32(Buffer.from(token)).replace(/=+$/, '').toLowerCase()}"}`, `{"n":"${REDACTED}"}`],
    ['the key gzipped twice, then base64', `z=${gzipSync(gzipSync(`note: ${KEY}`)).toString('base64')}`, `z=${REDACTED}`],
    ['a token in base64, then base64 again', `b=${Buffer.from(Buffer.from(token).toString('base64')).toString('base64')}`, `b=${REDACTED}`],
  ])('%s', (_form, text, shown) => {
    const redacted = redactor().text(text);
    expect(redacted).toBe(shown);
    expect(leaks(redacted)).toBe(false);
  });

  it('a body sent as UTF-16 and read as UTF-8: the key and the signature go, NULs and all', () => {
    const utf16 = Buffer.from(`{"note":"${KEY}","sig":"${signature}"}`, 'utf16le').toString('utf8');
    const redacted = redactor().text(utf16);
    expect(leaks(redacted.replaceAll('\u0000', ''))).toBe(false);
    expect(redacted.replaceAll('\u0000', '')).toBe(`{"note":"${REDACTED}","sig":"${REDACTED}"}`);
  });

  it('percent-encoding, an entity and a JSON escape nested in one another', () => {
    const nested = KEY.replaceAll('-', '%26%2345%3B');
    expect(redactor().text(`x=${nested}`)).toBe(`x=${REDACTED}`);
  });

  it('a gzip bomb in a body is redacted whole: it cannot be read within its bound', () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, ' ')).toString('base64');
    expect(redactor().text(`{"b":"${bomb}"}`)).toBe(`{"b":"${REDACTED}"}`);
  });

  it('leaves a compressed blob that holds no secret, and a base32 run of the same size, as they are', () => {
    const text = `g=${gzipSync('{"ExternalId":"pos-881","Status":"ACCEPTED"}').toString('base64')} b=${base32(Buffer.from('a'.repeat(200)))}`;
    expect(redactor().text(text)).toBe(text);
  });

  it('leaves text that only looks encoded as it is', () => {
    const text = 'a & b; 100% of \\ the &amp= parameter, &#9731; and %E2%98%83 and \\u2603';
    expect(redactor().text(text)).toBe(text);
  });
});

describe('a secret across the values of a record', () => {
  it('a JWT split across two headers, at a dot or between parts', () => {
    for (const [first, second] of [
      [`${header}.${payload}`, `.${signature}`],
      [`${header}.${payload}.`, signature],
      [`${header}.${payload}`, signature],
    ]) {
      const shown = redactor().record({ 'x-token-a': first!, 'content-type': 'application/json', 'x-token-b': second! });
      expect(leaks(Object.values(shown).join(' '))).toBe(false);
      expect(shown['x-token-a']).toBe(first);
      expect(shown['content-type']).toBe('application/json');
    }
  });

  it('a JWT split across a header sent twice (Node joins the two with a comma)', () => {
    const shown = redactor().record({ 'x-token': `${header}.${payload}, ${signature}` });
    expect(shown).toEqual({ 'x-token': `${header}.${payload}, ${REDACTED}` });
  });

  it('the key split across two query parameters', () => {
    const shown = redactor().record({ a: KEY.slice(0, 20), b: KEY.slice(20), c: 'plain' });
    expect(shown).toEqual({ a: REDACTED, b: REDACTED, c: 'plain' });
  });

  it('the key split across two headers, the second half first', () => {
    expect(redactor().record({ 'x-b': KEY.slice(20), 'x-a': KEY.slice(0, 20), accept: '*/*' })).toEqual({ 'x-b': REDACTED, 'x-a': REDACTED, accept: '*/*' });
  });

  it('the key split across two parameters of a URL in a line of text, the second starting with a hex pair (=3f reads as quoted-printable)', () => {
    // The key's second part starts `3f9c…`: decoding `&b=3f` as a quoted-printable byte ate the parameter boundary.
    const at = KEY.indexOf('3f9c');
    expect(redactor().text(`POST /v2/order/refund?a=${KEY.slice(0, at)}&b=${KEY.slice(at)} → 200`)).toBe(`POST /v2/order/refund?a=${REDACTED}&b=${REDACTED} → 200`);
  });
});

describe('a secret across the strings of one JSON value', () => {
  const fresh = () => new Redactor(KEY);

  it('a token whose signature is another field of the same object, never seen before', () => {
    const body = { auth: { head: `${header}.${payload}`, sig: signature, note: 'kept' } };
    expect(fresh().value(body)).toEqual({ auth: { head: `${header}.${payload}`, sig: REDACTED, note: 'kept' } });
  });

  it('the signature first, the header and claims after, a dot on either side', () => {
    const body = { a: `.${signature}`, b: `${header}.${payload}.` };
    expect(fresh().value(body)).toEqual({ a: `.${REDACTED}`, b: `${header}.${payload}.` });
  });

  it('a token split across the items of an array', () => {
    expect(fresh().value({ parts: [`${header}.${payload}`, signature] })).toEqual({ parts: [`${header}.${payload}`, REDACTED] });
  });

  it('the key split across three fields of an object', () => {
    const body = { x: KEY.slice(0, 12), y: KEY.slice(12, 30), z: KEY.slice(30), other: 'plain' };
    expect(fresh().value(body)).toEqual({ x: REDACTED, y: REDACTED, z: REDACTED, other: 'plain' });
  });

  it('the key in halves, the second first, with other fields between', () => {
    const [first, second] = [KEY.slice(0, 20), KEY.slice(20)];
    expect(fresh().value({ k2: second, other: 'plain', k1: first })).toEqual({ k2: REDACTED, other: 'plain', k1: REDACTED });
  });

  it('the key in halves as the names of two fields', () => {
    expect(fresh().value({ [KEY.slice(0, 20)]: 1, [KEY.slice(20)]: 2, id: 'kept' })).toEqual({ [REDACTED]: 2, id: 'kept' });
  });

  it('the signature cut in two fields beside the header and claims, in either order', () => {
    const [one, two] = [signature.slice(0, 20), signature.slice(20)];
    expect(fresh().value({ a: `${header}.${payload}`, s1: one, s2: two })).toEqual({ a: `${header}.${payload}`, s1: REDACTED, s2: REDACTED });
    expect(fresh().value({ s2: two, a: `${header}.${payload}`, s1: one })).toEqual({ s2: REDACTED, a: `${header}.${payload}`, s1: REDACTED });
  });

  it('header, claims and signature in three fields', () => {
    expect(fresh().value({ h: header, c: payload, s: signature })).toEqual({ h: header, c: payload, s: REDACTED });
  });

  it('the signature as a field name, and the header and claims as a name whose value is the signature', () => {
    expect(fresh().value({ a: `${header}.${payload}`, [signature]: 1 })).toEqual({ a: `${header}.${payload}`, [REDACTED]: 1 });
    expect(fresh().value({ [`${header}.${payload}`]: signature })).toEqual({ [`${header}.${payload}`]: REDACTED });
  });

  it("keeps the sandbox's own ids beside a token's header and claims: only a signature's length is taken for one", () => {
    const order = { OrderId: `ord-${randomUUID()}`, Reason: `${header}.${payload}`, ExternalId: 'E-1' };
    expect(fresh().value(order)).toEqual(order);
  });

  it('leaves fields of different objects apart, and an id beside no token as it is', () => {
    const body = { one: { head: 'abcd.efgh' }, two: { sig: signature }, id: signature };
    expect(fresh().value(body)).toEqual(body);
  });
});

describe('a blob wrapped in lines', () => {
  it('the key inside base64 wrapped at 76 characters, as MIME writes it', () => {
    const blob = Buffer.from(`${'preamble '.repeat(12)}${KEY}${' trailer'.repeat(12)}`).toString('base64');
    const wrapped = blob.match(/.{1,76}/g)!.join('\r\n');
    const redacted = redactor().text(`attachment:\r\n${wrapped}\r\n--end`);
    expect(leaks(Buffer.from(redacted.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1'))).toBe(false);
    expect(redacted.startsWith('attachment:\r\n')).toBe(true);
    expect(redacted.endsWith('\r\n--end')).toBe(true);
  });
});
