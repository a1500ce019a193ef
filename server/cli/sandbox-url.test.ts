import { describe, expect, it } from '@jest/globals';
import { resolveSandboxUrl } from './control-client.js';

describe('resolveSandboxUrl', () => {
  it('takes --sandbox over SANDBOX_URL over the default', () => {
    expect(resolveSandboxUrl('http://127.0.0.1:4200', { SANDBOX_URL: 'http://127.0.0.1:4300' })).toEqual({ ok: true, url: 'http://127.0.0.1:4200', from: '--sandbox' });
    expect(resolveSandboxUrl(undefined, { SANDBOX_URL: 'http://127.0.0.1:4300' })).toEqual({ ok: true, url: 'http://127.0.0.1:4300', from: 'SANDBOX_URL' });
    expect(resolveSandboxUrl(undefined, {})).toEqual({ ok: true, url: 'http://127.0.0.1:4100', from: 'the default' });
    expect(resolveSandboxUrl(undefined, { SANDBOX_URL: '  ' })).toEqual({ ok: true, url: 'http://127.0.0.1:4100', from: 'the default' });
  });

  it.each([
    ['http://127.0.0.1:4200/', 'http://127.0.0.1:4200'],
    ['http://sandbox.test/pos-sandbox//', 'http://sandbox.test/pos-sandbox'],
    ['HTTPS://Sandbox.Test:443', 'https://sandbox.test'],
    ['http://[::1]:4100', 'http://[::1]:4100'],
  ])('keeps %s as %s', (value, url) => {
    expect(resolveSandboxUrl(value, {})).toEqual({ ok: true, url, from: '--sandbox' });
  });

  it.each([
    ['ftp://x', '--sandbox'],
    ['127.0.0.1:4100', '--sandbox'],
    ['localhost', '--sandbox'],
    ['http://x/?a=1', '--sandbox'],
    ['http://x/#top', '--sandbox'],
  ])('refuses %s, naming where it came from', (value, from) => {
    expect(resolveSandboxUrl(value, {})).toEqual({ ok: false, problem: `${from} must be the http(s) address of the sandbox, such as http://127.0.0.1:4100, got '${value}'` });
    expect(resolveSandboxUrl(undefined, { SANDBOX_URL: value })).toEqual({ ok: false, problem: `SANDBOX_URL must be the http(s) address of the sandbox, such as http://127.0.0.1:4100, got '${value}'` });
  });
});
