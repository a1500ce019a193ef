import { describe, expect, it } from '@jest/globals';
import { judgeOrderReply } from './post-order.js';

describe('judgeOrderReply', () => {
  it.each([
    [{ status: 200, bodyText: '{"ExternalId":"E"}' }, { delivered: true, externalId: 'E', unknownFields: [] }],
    [{ status: 202, bodyText: '{"ExternalId":"E","Status":"REJECTED","Reason":"r","Eta":3}' }, { delivered: true, externalId: 'E', status: 'REJECTED', reason: 'r', unknownFields: ['Eta'] }],
    [{ error: 'no answer within 10 ms' }, { delivered: false, problem: 'no answer within 10 ms' }],
    [{ status: 200, bodyText: '[1]' }, { delivered: false, problem: expect.stringContaining("the POS's reply must be a JSON object, got array [1]") }],
    [{ status: 200, bodyText: 'OK' }, { delivered: false, problem: expect.stringContaining('the POS answered 200 with a body that is not JSON') }],
    [{ status: 200, bodyText: '{"ExternalId":7,"Reason":1}' }, { delivered: false, problem: "the POS's 200 reply does not deliver the order: ExternalId must be a non-empty string, got number 7; Reason must be a string, got number 1" }],
    [{ status: 302, bodyText: '' }, { delivered: false, problem: expect.stringContaining('the POS answered 302') }],
  ])('judges %j', (result, verdict) => {
    expect(judgeOrderReply(result)).toEqual(verdict);
  });
});
