import { describe, expect, it } from '@jest/globals';
import { faultErrorCode, injectedReply } from './inbound-faults.js';

const SAFE = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};
const JSON_TYPE = { ...SAFE, 'content-type': 'application/json; charset=utf-8' };

describe('the answer of an injected fault', () => {
  it('answers a status fault with the lowercase envelope on refund and order status', () => {
    expect(injectedReply({ kind: 'status', status: 503 }, 'order', 'fault rule fault-1')).toEqual({
      status: 503,
      headers: JSON_TYPE,
      body: JSON.stringify({
        errors: [{ code: 'SERVICE_UNAVAILABLE', message: '503 Service Unavailable: injected by the sandbox (fault rule fault-1); nothing was processed' }],
      }),
    });
  });

  it('answers a status fault with the Code/Message envelope on menu', () => {
    expect(JSON.parse(injectedReply({ kind: 'status', status: 500 }, 'menu', 'fault rule fault-2').body)).toEqual({
      errors: [{ Code: 'INTERNAL_ERROR', Message: '500 Internal Server Error: injected by the sandbox (fault rule fault-2); nothing was processed' }],
    });
  });

  it('sends a body of its own as the rule declares it: JSON as JSON, text as plain text, never as HTML by a guess', () => {
    expect(injectedReply({ kind: 'status', status: 502, body: { error: 'upstream' } }, 'order', 'r')).toEqual({ status: 502, headers: JSON_TYPE, body: '{"error":"upstream"}' });
    const page = '<html><script>fetch("/_sandbox/tokens",{method:"POST"})</script></html>';
    expect(injectedReply({ kind: 'status', status: 502, body: page }, 'order', 'r').headers).toEqual({ ...SAFE, 'content-type': 'text/plain; charset=utf-8' });
    expect(injectedReply({ kind: 'status', status: 502, body: page, contentType: 'text/html; charset=utf-8' }, 'order', 'r').headers).toEqual({ ...SAFE, 'content-type': 'text/html; charset=utf-8' });
    expect(injectedReply({ kind: 'status', status: 502, body: { a: 1 }, contentType: 'application/problem+json' }, 'menu', 'r').headers).toEqual({ ...SAFE, 'content-type': 'application/problem+json' });
  });

  it('lets no injected answer be sniffed or run anything, an envelope included', () => {
    for (const action of [{ kind: 'status', status: 503 }, { kind: 'rate-limit' }, { kind: 'malformed' }] as const) {
      expect(injectedReply(action, 'order', 'r').headers).toMatchObject(SAFE);
    }
  });

  it('answers a rate limit with 429, Retry-After and the envelope of the family', () => {
    const reply = injectedReply({ kind: 'rate-limit', retryAfter: 5 }, 'menu', 'fault rule fault-3');
    expect(reply.status).toBe(429);
    expect(reply.headers['retry-after']).toBe('5');
    expect(JSON.parse(reply.body)).toEqual({
      errors: [{ Code: 'TOO_MANY_REQUESTS', Message: 'rate limit exceeded, retry after 5 s: injected by the sandbox (fault rule fault-3); nothing was processed' }],
    });
  });

  it('answers malformed with JSON declared and a body no parser accepts', () => {
    const reply = injectedReply({ kind: 'malformed' }, 'order', 'fault rule fault-4');
    expect(reply.status).toBe(500);
    expect(reply.headers).toEqual(JSON_TYPE);
    expect(reply.body.startsWith('{"errors":[{"code":"INTERNAL_ERROR"')).toBe(true);
    expect(() => JSON.parse(reply.body) as unknown).toThrow(SyntaxError);
  });

  it.each([
    [400, 'order', 'INVALID_PAYLOAD'],
    [400, 'menu', 'VALIDATION_ERROR'],
    [504, 'order', 'GATEWAY_TIMEOUT'],
    [418, 'order', 'I_M_A_TEAPOT'],
    [599, 'menu', 'HTTP_599'],
  ] as const)('names status %d on %s %s', (status, family, code) => {
    expect(faultErrorCode(status, family)).toBe(code);
  });
});
