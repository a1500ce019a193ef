import { describe, expect, it } from '@jest/globals';
import { crossSiteRefusal, isOwnHost, repeatedHeaderRefusal, type CrossSitePolicy, type GuardedRequest } from './control-guards.js';

const LOCAL: CrossSitePolicy = { listenHost: '127.0.0.1', adminToken: false };
const request = (overrides: Partial<GuardedRequest> = {}): GuardedRequest => ({
  method: 'GET',
  protocol: 'http',
  host: '127.0.0.1:4100',
  origin: undefined,
  secFetchSite: undefined,
  contentType: undefined,
  hasBody: false,
  ...overrides,
});
const refusal = (overrides: Partial<GuardedRequest>, policy = LOCAL) => {
  const error = crossSiteRefusal(request(overrides), policy);
  return error && { status: error.status, code: error.code };
};

describe('isOwnHost', () => {
  it.each([
    ['localhost', true],
    ['localhost:4100', true],
    ['LOCALHOST:4100', true],
    ['app.localhost:4100', true],
    ['127.0.0.1', true],
    ['127.0.0.1:4100', true],
    ['127.255.3.9:80', true],
    ['[::1]:4100', true],
    ['[::1]', true],
    ['127.0.0.256:4100', false],
    ['127.0.0:4100', false],
    ['localhost.attacker.example:4100', false],
    ['attacker.example:4100', false],
    ['attacker.example', false],
    ['localhostx:4100', false],
    ['10.0.0.5:4100', false],
    ['0.0.0.0:4100', false],
    ['[::ffff:7f00:1]:4100', false],
    ['evil.example@127.0.0.1', false],
    ['127.0.0.1:4100/x', false],
    ['', false],
  ])('takes Host %j as its own: %s', (host, own) => {
    expect(isOwnHost(host, undefined)).toBe(own);
  });

  it.each([
    ['192.168.1.20', '192.168.1.20:4100', true],
    ['sandbox.lan', 'SANDBOX.lan:4100', true],
    ['::', '[::]:4100', true],
    ['0.0.0.0', '0.0.0.0:4100', true],
    ['192.168.1.20', '192.168.1.21:4100', false],
  ])('with --host %s, takes Host %j as its own: %s', (listenHost, host, own) => {
    expect(isOwnHost(host, listenHost)).toBe(own);
  });
});

describe('crossSiteRefusal', () => {
  it.each<[string, Partial<GuardedRequest>, ReturnType<typeof refusal>]>([
    ['a tool: no Origin, no Sec-Fetch-Site', {}, undefined],
    ['no Host at all (HTTP/1.0 tools)', { host: undefined }, undefined],
    ['the sandbox own origin', { origin: 'http://127.0.0.1:4100' }, undefined],
    ['its own origin spelt with localhost', { host: 'localhost:4100', origin: 'http://localhost:4100' }, undefined],
    ['a default port left out of the Origin', { host: 'localhost:80', origin: 'http://localhost' }, undefined],
    ['Sec-Fetch-Site: same-origin', { secFetchSite: 'same-origin' }, undefined],
    ['Sec-Fetch-Site: none (typed in the address bar)', { secFetchSite: 'none' }, undefined],
    ['another origin', { origin: 'http://evil.example' }, { status: 403, code: 'FORBIDDEN' }],
    ['another port of localhost', { origin: 'http://127.0.0.1:3000' }, { status: 403, code: 'FORBIDDEN' }],
    ['https for an http sandbox', { origin: 'https://127.0.0.1:4100' }, { status: 403, code: 'FORBIDDEN' }],
    ['Origin: null', { origin: 'null' }, { status: 403, code: 'FORBIDDEN' }],
    ['an Origin and no Host', { host: undefined, origin: 'http://127.0.0.1:4100' }, { status: 403, code: 'FORBIDDEN' }],
    ['Sec-Fetch-Site: cross-site', { secFetchSite: 'cross-site' }, { status: 403, code: 'FORBIDDEN' }],
    ['a rebound name', { host: 'attacker.example:4100', origin: 'http://attacker.example:4100' }, { status: 403, code: 'FORBIDDEN' }],
    ['POST with no body and no Content-Type', { method: 'POST' }, undefined],
    ['POST application/json', { method: 'POST', contentType: 'application/json', hasBody: true }, undefined],
    ['POST application/json with a charset', { method: 'POST', contentType: 'Application/JSON; charset=utf-8', hasBody: true }, undefined],
    ['DELETE with no body', { method: 'DELETE' }, undefined],
    ['GET text/plain (reads change nothing)', { contentType: 'text/plain' }, undefined],
    ['POST text/plain', { method: 'POST', contentType: 'text/plain', hasBody: true }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
    ['POST text/plain without a body', { method: 'POST', contentType: 'text/plain;charset=UTF-8' }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
    ['PUT a form', { method: 'PUT', contentType: 'application/x-www-form-urlencoded', hasBody: true }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
    ['PATCH multipart', { method: 'PATCH', contentType: 'multipart/form-data; boundary=x', hasBody: true }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
    ['DELETE a body without Content-Type', { method: 'delete', hasBody: true }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
  ])('%s → %j', (_what, overrides, expected) => {
    expect(refusal(overrides)).toEqual(expected);
  });

  it('takes any Host with --admin-token, and still refuses another Origin', () => {
    const withToken: CrossSitePolicy = { listenHost: '0.0.0.0', adminToken: true };
    expect(refusal({ host: 'sandbox.example:4100' }, withToken)).toBeUndefined();
    expect(refusal({ host: 'sandbox.example:4100', origin: 'http://sandbox.example:4100' }, withToken)).toBeUndefined();
    expect(refusal({ host: 'sandbox.example:4100', origin: 'http://evil.example' }, withToken)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('judges Host first: a rebound page is same-origin with itself, only its Host gives it away', () => {
    const error = crossSiteRefusal(request({ host: 'attacker.example:4100', origin: 'http://attacker.example:4100', method: 'POST', contentType: 'text/plain' }), LOCAL);
    expect(error?.messages).toEqual([
      "Host 'attacker.example:4100' is not this sandbox's name: the control API answers requests addressed to localhost, *.localhost, 127.x.x.x or [::1], so that a web page cannot reach it through a DNS name pointed at this machine (DNS rebinding); address the sandbox by one of those names, or start it with --admin-token to take any Host",
    ]);
  });

  it('names the --host address among the names it takes when it is not a loopback one', () => {
    const error = crossSiteRefusal(request({ host: 'attacker.example' }), { listenHost: '192.168.1.20', adminToken: false });
    expect(error?.messages[0]).toContain('addressed to localhost, *.localhost, 127.x.x.x, [::1] or 192.168.1.20 (--host), so that');
  });
});

describe('repeatedHeaderRefusal', () => {
  it.each([
    [['Host', '127.0.0.1', 'Host', 'evil.example'], 'host'],
    [['Origin', 'http://127.0.0.1:4100', 'origin', 'http://evil.example'], 'origin'],
    [['Sec-Fetch-Site', 'cross-site, same-origin'], 'sec-fetch-site'],
  ])('%j is refused naming %s', (raw, name) => {
    expect(repeatedHeaderRefusal(raw)?.messages).toEqual([
      `${name} given more than once; the control API takes Host, Origin and Sec-Fetch-Site once each, with one value`,
    ]);
  });

  it('takes each once, and any other header repeated', () => {
    expect(repeatedHeaderRefusal(['Host', '127.0.0.1', 'Accept', 'a', 'Accept', 'b', 'Sec-Fetch-Site', 'same-origin'])).toBeUndefined();
  });
});
