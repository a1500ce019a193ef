import { describe, expect, it } from '@jest/globals';
import { keyFingerprint } from '../server/domain/key-fingerprint.js';
import { holdsKey, keyInReportFields } from './report-fields.js';

const KEY = 'SANDBOX-ONLY-nonprod-key-acme-3f9c2a7e5b1d4c8a';
const FINGERPRINT = keyFingerprint(KEY);

describe('holdsKey', () => {
  it.each([
    ['the key alone', KEY],
    ['the key inside a name', `Acme POS ${KEY} v2`],
    ['the key percent-encoded in a URL', `http://pos.test/order?k=${encodeURIComponent(KEY).replaceAll('-', '%2D')}`],
    ['the key with a zero-width space inside', `${KEY.slice(0, 9)}\u200b${KEY.slice(9)}`],
  ])('finds %s', (_what, text) => {
    expect(holdsKey(text, FINGERPRINT)).toBe(true);
  });

  it.each([
    ['a name', 'Acme POS'],
    ['most of the key', KEY.slice(0, -1)],
    ['the key in another case', KEY.toLowerCase()],
  ])('does not find it in %s', (_what, text) => {
    expect(holdsKey(text, FINGERPRINT)).toBe(false);
  });
});

describe('keyInReportFields', () => {
  it('names the first field that holds the key, by its flag', () => {
    expect(keyInReportFields({ pos: { name: 'acme', version: `4.2.0-${KEY}` }, sandboxUrl: 'http://127.0.0.1:4100' }, FINGERPRINT)).toBe('--pos-version');
    expect(keyInReportFields({ pos: { name: 'acme' }, driverUrl: `http://pos.test/?key=${KEY}`, sandboxUrl: 'http://127.0.0.1:4100' }, FINGERPRINT)).toBe('--driver');
    expect(keyInReportFields({ pos: { name: 'acme' }, sandboxUrl: 'http://127.0.0.1:4100' }, FINGERPRINT)).toBeUndefined();
    expect(keyInReportFields({ pos: { name: KEY }, sandboxUrl: 'http://127.0.0.1:4100' }, undefined)).toBeUndefined();
  });
});
