import { describe, expect, it } from '@jest/globals';
import { FAULT_HEADER_SYNTAX, parseFaultHeader } from './fault-header.js';

describe('the x-sandbox-fault header', () => {
  it.each([
    ['status=503', { kind: 'status', status: 503 }],
    [' status = 429 ', { kind: 'status', status: 429 }],
    ['delay=1500', { kind: 'delay', ms: 1500 }],
    ['drop', { kind: 'drop' }],
    ['HANG', { kind: 'hang' }],
    ['malformed', { kind: 'malformed' }],
    ['malformed=200', { kind: 'malformed', status: 200 }],
    ['rate-limit=5', { kind: 'rate-limit', retryAfter: 5 }],
    ['rate-limit', { kind: 'rate-limit', retryAfter: 1 }],
  ])('reads %j', (value, action) => {
    expect(parseFaultHeader(value)).toEqual({ ok: true, action });
  });

  it.each([
    ['status', "x-sandbox-fault 'status' needs a status from 400 to 599"],
    ['status=200', "x-sandbox-fault 'status=200' needs a status from 400 to 599"],
    ['status=5o3', "x-sandbox-fault 'status=5o3' needs a status from 400 to 599"],
    ['delay=-1', "x-sandbox-fault 'delay=-1' needs milliseconds from 0 to 600000"],
    ['drop=1', "x-sandbox-fault 'drop=1' takes no value"],
    ['rate-limit=soon', "x-sandbox-fault 'rate-limit=soon' takes Retry-After seconds from 0 to 86400, or nothing"],
    ['bad-signature', "x-sandbox-fault 'bad-signature' is not understood"],
    ['', "x-sandbox-fault '' is empty"],
  ])('refuses %j and shows the syntax', (value, problem) => {
    expect(parseFaultHeader(value)).toEqual({ ok: false, problem: `${problem}; use one of: ${FAULT_HEADER_SYNTAX}` });
  });
});
