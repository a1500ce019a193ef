import { describe, expect, it } from '@jest/globals';
import { JtiRegistry, findCredentialInQuery, urlWithoutCredentials } from './authenticate.js';

describe('JtiRegistry', () => {
  it('tells a first use, the same token again, and another token with the same jti apart', () => {
    const jtis = new JtiRegistry();
    expect(jtis.use('a', 'token-1')).toBe('first');
    expect(jtis.use('a', 'token-1')).toBe('same-token');
    expect(jtis.use('a', 'token-2')).toBe('reused');
    expect(jtis.use('b', 'token-2')).toBe('first');
  });

  it('forgets the oldest jti past its capacity', () => {
    const jtis = new JtiRegistry(2);
    jtis.use('a', 't1');
    jtis.use('b', 't2');
    jtis.use('c', 't3');
    expect(jtis.use('a', 'other')).toBe('first');
    expect(jtis.use('c', 'other')).toBe('reused');
  });
});

const KEY = 'the-partner-key-0123456789abcdef0123';

describe('findCredentialInQuery', () => {
  it.each([
    ['key=abc', 'key'],
    ['api_key=abc', 'api_key'],
    ['apiKey=abc', 'apiKey'],
    ['x-api-key=abc', 'x-api-key'],
    ['access_token=abc', 'access_token'],
    ['client_secret=abc', 'client_secret'],
    [`anything=${KEY}`, 'anything'],
    ['t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl', 't'],
    ['page=2&token=abc', 'token'],
  ])('finds the credential in ?%s', (query, name) => {
    expect(findCredentialInQuery(new URLSearchParams(query), KEY)).toBe(name);
  });

  it.each(['', 'page=2', 'monkey=1', 'tokenizer=bpe', 'locationId=loc-std-001'])('finds nothing in ?%s', (query) => {
    expect(findCredentialInQuery(new URLSearchParams(query), KEY)).toBeUndefined();
  });
});

describe('urlWithoutCredentials', () => {
  it.each([
    ['/v2/order/refund', '/v2/order/refund'],
    ['/v2/order/refund?api_key=k&x=1', '/v2/order/refund?api_key=[redacted]&x=1'],
    ['/v2/order/refund?x=the-partner-key', '/v2/order/refund?x=[redacted]'],
    ['/v2/order/refund?access_token=aaaaaaaa.bbbbbbbb.cccc&%zz=1&flag', '/v2/order/refund?access_token=[redacted]&%zz=1&flag'],
    ['/v2/order/refund?a%5Fkey=1', '/v2/order/refund?a%5Fkey=[redacted]'],
  ])('%s is logged as %s', (url, shown) => {
    expect(urlWithoutCredentials(url, 'the-partner-key')).toBe(shown);
  });
});

describe('a key with + sent raw in a query string', () => {
  it('is still found, though the query parser reads + as a space', () => {
    const key = 'Fr+Sxnj88GvXv4+Dx/JWiK0vteIqz=';
    expect(findCredentialInQuery(new URLSearchParams(`note=${key}`), key)).toBe('note');
  });
});
