import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { bodySchemaPointers, bodyValidatorsModule, contractCheck, type ObservedExchange } from './response-contract.js';

const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } };
const document = {
  paths: {
    '/v2/order/refund': {
      post: {
        responses: {
          '200': { description: 'accepted, no body' },
          '400': { description: 'refused', content: envelope },
          default: { description: 'what a fault rule injects', content: envelope },
        },
      },
    },
    '/_sandbox/journal/{id}': { get: { responses: { '200': { description: 'one', content: { 'application/json': { schema: { type: 'object', required: ['id'] } } } }, '4XX': { description: 'error', content: envelope } } } },
    '/_sandbox/journal.har': { get: { responses: { '200': { description: 'HAR', content: { 'application/json': { schema: { type: 'object', required: ['log'] } } } } } } },
    '/_sandbox/health': { get: { responses: { '200': { description: 'up', content: { 'application/json': { schema: { type: 'object', properties: { startedAt: { type: 'string', format: 'date-time' } } } } } } } } },
  },
  components: { schemas: { Envelope: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', minItems: 1 } } } } },
};
const check = contractCheck(document);
const json = { 'content-type': 'application/json; charset=utf-8' };
const answer = (overrides: Partial<ObservedExchange>): ObservedExchange => ({ method: 'POST', path: '/v2/order/refund', status: 200, headers: {}, text: '', ...overrides });

describe('contractCheck', () => {
  it('finds nothing wrong with an answer the document describes', () => {
    expect(check(answer({}))).toEqual([]);
    expect(check(answer({ status: 400, headers: json, text: '{"errors":[{"code":"X","message":"y"}]}' }))).toEqual([]);
  });

  it('names a status the operation does not declare', () => {
    const bare = contractCheck({ paths: { '/x': { get: { responses: { '200': { description: 'ok' } } } } } });
    expect(bare(answer({ method: 'GET', path: '/x', status: 401 }))).toEqual(['GET /x → 401: the document declares no 401 (nor 4XX, nor default) for GET /x']);
  });

  it('takes a status from its class (4XX), then from default', () => {
    expect(check(answer({ method: 'GET', path: '/_sandbox/journal/j-1', status: 404, headers: json, text: '{"errors":[{}]}' }))).toEqual([]);
    expect(check(answer({ status: 503, headers: json, text: '{"errors":[]}' }))).toEqual([
      'POST /v2/order/refund → 503: body/errors must NOT have fewer than 1 items (schema #/properties/errors/minItems)',
    ]);
  });

  it('names each way a body breaks its schema, formats included', () => {
    expect(check(answer({ method: 'GET', path: '/_sandbox/journal/j-1', headers: json, text: '{"ID":"j-1"}' }))).toEqual([
      "GET /_sandbox/journal/j-1 → 200: body must have required property 'id' (schema #/required)",
    ]);
    expect(check(answer({ method: 'GET', path: '/_sandbox/health', headers: json, text: '{"startedAt":"yesterday"}' }))).toEqual([
      'GET /_sandbox/health → 200: body/startedAt must match format "date-time" (schema #/properties/startedAt/format)',
    ]);
  });

  it('refuses a body where the document declares none, and no body where it declares one', () => {
    expect(check(answer({ headers: json, text: '{}' }))).toEqual(['POST /v2/order/refund → 200: the document declares no body for this answer, the sandbox sent "{}"']);
    expect(check(answer({ status: 400, text: '' }))).toEqual(['POST /v2/order/refund → 400: the document declares a body (application/json), the sandbox sent none']);
  });

  it('refuses a media type the document does not declare, and JSON that does not parse', () => {
    expect(check(answer({ status: 400, headers: { 'content-type': 'text/html' }, text: '<h1>Bad</h1>' }))).toEqual([
      'POST /v2/order/refund → 400: the sandbox answered text/html, the document declares application/json',
    ]);
    expect(check(answer({ status: 400, headers: json, text: '{"errors":' }))).toEqual(['POST /v2/order/refund → 400: labelled application/json but not JSON: "{\\"errors\\":"']);
  });

  it("takes a fault rule's body as the rule made it (malformed on purpose), but still wants its status declared", () => {
    const fault = { ...json, 'x-sandbox-fault-rule': 'flt-1' };
    expect(check(answer({ status: 500, headers: fault, text: '{"errors":' }))).toEqual([]);
    const bare = contractCheck({ paths: { '/x': { get: { responses: { '200': { description: 'ok' } } } } } });
    expect(bare(answer({ method: 'GET', path: '/x', status: 502, headers: fault, text: '{"errors":' }))).toHaveLength(1);
  });

  it('judges a literal path by its own operation, not by a template that also matches it', () => {
    expect(check.templateFor('/_sandbox/journal.har')).toBe('/_sandbox/journal.har');
    expect(check.templateFor('/_sandbox/journal/j-000001')).toBe('/_sandbox/journal/{id}');
    expect(check(answer({ method: 'GET', path: '/_sandbox/journal.har', headers: json, text: '{"log":{}}' }))).toEqual([]);
  });

  it('leaves alone what no operation describes: an unknown path, a method the path does not have, a stream', () => {
    expect(check.templateFor('/nothing')).toBeUndefined();
    expect(check(answer({ path: '/nothing', status: 404, headers: { 'content-type': 'text/html' }, text: 'x' }))).toEqual([]);
    expect(check(answer({ method: 'GET', status: 405, headers: { 'content-type': 'text/html' }, text: 'x' }))).toEqual([]);
    expect(check(answer({ method: 'GET', path: '/_sandbox/journal/j-1', headers: json, text: undefined }))).toEqual([]);
  });

  it('judges with the body validators compiled once per run (bodyValidatorsModule) as it judges with its own', () => {
    const { resolve } = createRequire(import.meta.url);
    const dir = mkdtempSync(join(tmpdir(), 'response-contract-'));
    try {
      writeFileSync(join(dir, 'validators.cjs'), bodyValidatorsModule(document, resolve));
      const compiled = createRequire(import.meta.url)(join(dir, 'validators.cjs')) as Record<string, ValidateFunction>;
      expect(Object.keys(compiled).sort()).toEqual(bodySchemaPointers(document).sort());
      expect(Object.keys(compiled)).toHaveLength(6);
      const prebuilt = contractCheck(document, compiled);
      const answers = [
        answer({ status: 503, headers: json, text: '{"errors":[]}' }),
        answer({ status: 400, headers: json, text: '{"errors":[{"code":"X","message":"y"}]}' }),
        answer({ method: 'GET', path: '/_sandbox/journal/j-1', headers: json, text: '{"ID":"j-1"}' }),
        answer({ method: 'GET', path: '/_sandbox/health', headers: json, text: '{"startedAt":"yesterday"}' }),
        answer({ method: 'GET', path: '/_sandbox/health', headers: json, text: '{"startedAt":"2026-11-23T10:00:00Z"}' }),
      ];
      expect(answers.map(prebuilt)).toEqual(answers.map(check));
      expect(answers.map(prebuilt).filter((found) => found.length > 0)).toHaveLength(3);
      // A validator it is handed is the one it judges by: none is compiled again.
      const health = bodySchemaPointers(document).find((pointer) => pointer.includes('health'))!;
      const refuseAll = Object.assign(() => false, { errors: [{ instancePath: '', message: 'is refused by the handed validator', schemaPath: '#/handed' }] });
      expect(contractCheck(document, { ...compiled, [health]: refuseAll as unknown as ValidateFunction })(answers[4]!)).toEqual([
        'GET /_sandbox/health → 200: body is refused by the handed validator (schema #/handed)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
