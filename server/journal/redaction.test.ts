import { describe, expect, it } from '@jest/globals';
import { redactJwtSignatures, scrubText, scrubValue } from './redaction.js';
import { splitTokenSignatures } from './split-secrets.js';
import { Redactor, REMEMBERED_SIGNATURES } from './redactor.js';
import { signHs256, validClaims } from '../test/test-identity.js';

const KEY = 'the-partner-key-0123456789abcdef';
const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims(), KEY);
const [header, payload, signature] = token.split('.') as [string, string, string];

describe('redactJwtSignatures', () => {
  it('keeps header and claims of a JWT and drops its signature, wherever it sits in the text', () => {
    expect(redactJwtSignatures(`Bearer ${token}, again:${token}`)).toBe(`Bearer ${header}.${payload}.[redacted], again:${header}.${payload}.[redacted]`);
  });

  it('finds a JWT whose header does not start with eyJ', () => {
    const spaced = `${Buffer.from('{ "alg": "HS256" }').toString('base64url')}.${payload}.${signature}`;
    expect(spaced.startsWith('eyAi')).toBe(true);
    expect(redactJwtSignatures(spaced)).toBe(spaced.replace(signature, '[redacted]'));
  });

  it('finds a JWT glued to a dotted prefix', () => {
    expect(redactJwtSignatures(`v1.${token}`)).toBe(`v1.${header}.${payload}.[redacted]`);
  });

  it('leaves dotted text that is not a JWT alone', () => {
    const text = 'www.example.com/path.name.longenoughsegment1234567 and 1.2.3';
    expect(redactJwtSignatures(text)).toBe(text);
  });
});

describe('scrubText', () => {
  it('replaces the key, and a remembered signature standing alone', () => {
    expect(scrubText(`?api_key=${KEY}&s=${signature}`, [KEY], new Set([signature]))).toBe('?api_key=[redacted]&s=[redacted]');
  });

  it('does not search for secrets shorter than 8 characters', () => {
    expect(scrubText('a short key abc appears', ['abc'])).toBe('a short key abc appears');
  });
});

describe('scrubValue', () => {
  it('scrubs keys and values, and copies __proto__ as a plain key without touching any prototype', () => {
    const value = JSON.parse(`{"__proto__":{"polluted":"${KEY}"},"list":["${token}"]}`) as Record<string, unknown>;
    const copy = scrubValue(value, [KEY]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).toBe(`{"__proto__":{"polluted":"[redacted]"},"list":["${header}.${payload}.[redacted]"]}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('walks 100,000 levels without recursion', () => {
    let deep: unknown = KEY;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let inner = scrubValue(deep, [KEY]);
    for (let i = 0; i < 100_000; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe('[redacted]');
  });
});

describe('Redactor', () => {
  it('redacts the signature of a remembered token in later text, and forgets the oldest past its limit', () => {
    const redactor = new Redactor(KEY);
    redactor.remember(`Bearer ${token}`);
    expect(redactor.text(`s=${signature}`)).toBe('s=[redacted]');
    for (let i = 0; i < REMEMBERED_SIGNATURES; i++) redactor.remember(`a.b.${String(i).padStart(20, 'x')}`);
    expect(redactor.text(`s=${signature}`)).toBe(`s=${signature}`);
  });

  it('remembers a recurring text found clean, and searches it again once a new signature could be in it', () => {
    const redactor = new Redactor(KEY);
    const path = `/v2/order/refund?s=${signature}`;
    // Clean while the signature is unknown (it is alone, with no header and claims to show it is one).
    expect(redactor.recurringText(path)).toBe(path);
    expect(redactor.recurringText(path)).toBe(path);
    redactor.remember(`Bearer ${token}`);
    expect(redactor.recurringText(path)).toBe('/v2/order/refund?s=[redacted]');
    expect(redactor.text(path)).toBe('/v2/order/refund?s=[redacted]');
    // A text holding the key is never kept as clean; the same token again adds nothing, and a known text stays known.
    expect(redactor.recurringText(`/v2/${KEY}`)).toBe('/v2/[redacted]');
    redactor.remember(`Bearer ${token}`);
    expect(redactor.recurringText('/v2/order/refund')).toBe('/v2/order/refund');
    expect(redactor.recurringText(path)).toBe('/v2/order/refund?s=[redacted]');
  });
});

describe('the shapes an independent attack run slipped past the first redaction', () => {
  const redactor = new Redactor(KEY);

  it.each([
    ['a token glued to a prefix', `note: tok_${token}`, `note: tok_${header}.${payload}.[redacted]`],
    ['a header with padding', `${header}=.${payload}.${signature}`, `${header}=.${payload}.[redacted]`],
    ['a header with a BOM', `${Buffer.from('\ufeff{"alg":"HS256"}').toString('base64url')}.${payload}.${signature}`, `${Buffer.from('\ufeff{"alg":"HS256"}').toString('base64url')}.${payload}.[redacted]`],
    ['a header that is a JSON array', `${Buffer.from('["x"]').toString('base64url')}.${payload}.${signature}`, `${Buffer.from('["x"]').toString('base64url')}.${payload}.[redacted]`],
    // Redacted in the form it was sent in: the journal shows what crossed the wire, less the secret.
    ['a token in a path with its dots percent-encoded', `/v2/${token.replaceAll('.', '%2E')}`, `/v2/${header}%2E${payload}%2E[redacted]`],
    ['a form body', `t=${token.replaceAll('.', '%2E')}&x=%C0`, `t=${header}%2E${payload}%2E[redacted]&x=%C0`],
    ['the key percent-encoded', `/v2/%${KEY.charCodeAt(0).toString(16)}${KEY.slice(1)}`, '/v2/[redacted]'],
    ['the key lower-cased by a message', `unsupported content encoding "${KEY.toLowerCase()}"`, 'unsupported content encoding "[redacted]"'],
    ['the key upper-cased', `charset ${KEY.toUpperCase()}`, 'charset [redacted]'],
    ['the key in base64 (its padding aside)', `?x=${Buffer.from(KEY).toString('base64').replace(/=+$/, '')}`, '?x=[redacted]'],
    ['the key in base64url', `?x=${Buffer.from(KEY).toString('base64url')}`, '?x=[redacted]'],
  ])('%s', (_shape, text, shown) => {
    expect(redactor.text(text)).toBe(shown);
  });

  it('keeps the claims of a token readable, and text with a stray % as it was', () => {
    expect(redactor.text(`100% of ${header}.${payload}`)).toBe(`100% of ${header}.${payload}`);
  });
});

describe('text built to make the redaction slow', () => {
  it('scrubs 1 MiB of letters beside a lone dot in one pass (a backtracking pattern took minutes here)', () => {
    const text = `${'a'.repeat(1024 * 1024)} . ${'b'.repeat(1024)}`;
    expect(scrubText(text, [KEY]) === text).toBe(true);
  });

  it('scrubs 1 MiB of dots and letters', () => {
    const text = 'a.'.repeat(512 * 1024);
    expect(scrubText(text, [KEY]) === text).toBe(true);
  });
});

describe('shapes the second attack run slipped past', () => {
  const plusKey = 'Fr+Sxnj88/GvXv4+Dx/JWiK0vteIqz=';
  const redactor = new Redactor(plusKey);

  it.each([
    ['the key with + read as a space by a query parser', `note=${plusKey.replaceAll('+', ' ')}`, 'note=[redacted]'],
    ['the key with / escaped as JSON may write it', `{"ExternalId":"${plusKey.replaceAll('/', '\\/')}" oops`, '{"ExternalId":"[redacted]" oops'],
    ['a token percent-encoded twice', `/v2/${token.replaceAll('.', '%252E')}`, `/v2/${header}%252E${payload}%252E[redacted]`],
    ['a detached JWS', `${header}..${signature}`, `${header}..[redacted]`],
  ])('%s', (_shape, text, shown) => {
    expect(redactor.text(text)).toBe(shown);
  });
});

describe('splitTokenSignatures', () => {
  it('finds the signature of a token split across values, in either order, in standard base64 too', () => {
    expect(splitTokenSignatures([`Bearer ${header}.${payload}`, signature], [KEY])).toEqual([signature]);
    expect(splitTokenSignatures([`.${signature}`, 'text/plain', `${header}.${payload}.`], [KEY])).toEqual([signature]);
    const standard = Buffer.from(signature, 'base64url').toString('base64');
    expect(splitTokenSignatures([`${header}.${payload}`, `a, ${standard}`], [KEY])).toEqual([signature]);
  });

  it('finds none beside a whole token, or with no head', () => {
    expect(splitTokenSignatures([`Bearer ${token}`, '6c1f4a0e-5b1d-4c8a-9f3a-7e5b1d4c8a3f'], [KEY])).toEqual([]);
    expect(splitTokenSignatures(['www.example.com', signature], [KEY])).toEqual([]);
  });
});

describe('hostile shapes, each read in one pass', () => {
  it('a long run before a claims-like part, and a long value ending in a head, cost one reading each', () => {
    const redactor = new Redactor(KEY);
    redactor.rememberTokensIn(`${'a'.repeat(256 * 1024)}.eyJ`);
    expect(redactor.learnt).toBe(0);
    const value = { a: `${'x'.repeat(256 * 1024)} ${header}.${payload}`, b: signature };
    expect(scrubValue(value, [KEY])).toEqual({ a: value.a, b: '[redacted]' });
  });

  it('a value of 100 cut tokens: signatures worked out for the first 64, every one redacted by its length', () => {
    const heads = Array.from({ length: 100 }, (_, index) => signHs256({ alg: 'HS256' }, { n: index }, KEY));
    const cut = heads.flatMap((token) => [token.slice(0, token.lastIndexOf('.')), token.slice(token.lastIndexOf('.') + 1)]);
    const shown = scrubValue(cut, [KEY]) as string[];
    expect(shown[1]).toBe('[redacted]');
    expect(shown.filter((text) => text === '[redacted]').length).toBe(100);
  });
});
