import { describe, expect, it } from '@jest/globals';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { judgeOrderReply, replyText } from './post-order.js';

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

describe('replyText', () => {
  const reply = '{"ExternalId":"E-1","Status":"ACCEPTED"}';
  it.each([
    ['no coding', Buffer.from(reply), undefined],
    ['identity', Buffer.from(reply), 'identity'],
    ['gzip', gzipSync(reply), 'gzip'],
    ['x-gzip, in capitals', gzipSync(reply), ' X-GZIP '],
    ['deflate', deflateSync(reply), 'deflate'],
    ['br', brotliCompressSync(reply), 'br'],
  ])('reads a reply sent with %s', (_name, raw, coding) => {
    expect(replyText(raw, coding)).toEqual({ text: reply });
  });

  it('reads a gzip reply cut short as far as it goes', () => {
    const whole = gzipSync(`{"ExternalId":"E-1","Reason":"${'r'.repeat(2000)}"}`, { level: 0 });
    expect((replyText(whole.subarray(0, 200), 'gzip') as { text: string }).text.startsWith('{"ExternalId":"E-1","Reason":"rrr')).toBe(true);
  });

  it.each([
    ['a body that is not what its coding says', Buffer.from(reply), 'gzip', 'the POS answered with Content-Encoding: gzip but the body is not gzip data'],
    ['a coding the sandbox does not read', Buffer.from(reply), 'zstd', 'the POS answered with Content-Encoding: zstd, which the sandbox does not read; send the reply plain, or as gzip, deflate or br'],
    ['two codings', gzipSync(gzipSync(reply)), 'gzip, gzip', 'the POS answered with Content-Encoding: gzip, gzip, which the sandbox does not read; send the reply plain, or as gzip, deflate or br'],
    ['a bomb', gzipSync(Buffer.alloc(10 * 1024 * 1024)), 'gzip', "the POS's gzip reply inflates past 64 KiB, more than an order reply takes"],
  ])('names %s', (_name, raw, coding, problem) => {
    expect(replyText(raw, coding)).toEqual({ problem });
  });
});
