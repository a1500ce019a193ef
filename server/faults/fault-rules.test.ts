import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { renderTypes, TYPES_TARGETS } from '../../scripts/generate-types.js';
import { checkFaultRules, FAULT_RULE_SCHEMA_FILE, FAULT_HEADER_SYNTAX, parseFaultHeader } from './fault-rules.js';
import { PACKAGE_ROOT } from '../version.js';

const READY_SCRIPTS = join(PACKAGE_ROOT, 'fixtures', 'faults');

describe('checking fault rules', () => {
  it('has the TypeScript types generated from the schema (npm run generate:types)', async () => {
    const target = TYPES_TARGETS.find((candidate) => candidate.schemas.includes(FAULT_RULE_SCHEMA_FILE))!;
    expect(readFileSync(target.file, 'utf8')).toBe(await renderTypes(target));
  });

  it('accepts a single rule and a list of rules', () => {
    const rule = { match: { direction: 'inbound', path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2 };
    expect(checkFaultRules(rule)).toEqual({ ok: true, rules: [rule] });
    expect(checkFaultRules([rule, { action: { kind: 'drop' }, probability: 0.1 }])).toMatchObject({ ok: true });
  });

  it.each([
    ['no action', {}, ['action is required']],
    ['not an object', 'status=503', ['the rule must be an object, got string "status=503"']],
    ['an unknown kind', { action: { kind: 'explode' } }, [expect.stringMatching(/^action\.kind must be one of "status", "delay"/)]],
    ['a status without its status', { action: { kind: 'status' } }, ['action.status is required for kind status']],
    ['a 2xx status fault', { action: { kind: 'status', status: 204 } }, [expect.stringMatching(/^action\.status must be from 400 to 599 for kind status, got 204/)]],
    ['a parameter of another kind', { action: { kind: 'drop', ms: 5 } }, ['action.ms is not a parameter of kind drop (it takes none)']],
    ['a delay without ms', { action: { kind: 'delay' } }, ['action.ms is required for kind delay']],
    ['an outbound kind inbound', { action: { kind: 'bad-signature' } }, ['action.kind bad-signature applies to orders the sandbox sends: set match.direction to "outbound"']],
    ['a partner on an outbound rule', { match: { direction: 'outbound', partner: 'x' }, action: { kind: 'drop' } }, [expect.stringMatching(/^match\.partner applies to inbound calls only/)]],
    ['an OrderId on an inbound rule', { match: { orderId: 'chk-1a2b3c-04' }, action: { kind: 'drop' } }, [expect.stringMatching(/^match\.orderId applies to outbound deliveries only/)]],
    ['a probability of 0', { action: { kind: 'drop' }, probability: 0 }, ['probability must be more than 0, got number 0']],
    ['times of 0', { action: { kind: 'drop' }, times: 0 }, ['times must be 1 or more, got number 0']],
    ['an unknown field', { action: { kind: 'drop' }, once: true }, ['once is not an allowed field']],
    ['a path without its slash', { match: { path: 'order/refund' }, action: { kind: 'drop' } }, ['match.path must match ^/, got string "order/refund"']],
    ['a content type without a body', { action: { kind: 'status', status: 502, contentType: 'text/html' } }, ['action.contentType goes with action.body: it says what the body is']],
    ['a content type on another kind', { action: { kind: 'drop', contentType: 'text/html' } }, ['action.contentType is not a parameter of kind drop (it takes none)']],
    [
      'a content type that is no media type',
      { action: { kind: 'status', status: 502, body: 'x', contentType: 'text/html\r\nSet-Cookie: a=b' } },
      [expect.stringMatching(/^action\.contentType must match /)],
    ],
  ])('refuses %s, naming the path', (_name, rule, problems) => {
    expect(checkFaultRules(rule)).toEqual({ ok: false, problems });
  });

  it('names the index of a rule in a list, and refuses an id given twice', () => {
    expect(checkFaultRules([{ id: 'a', action: { kind: 'drop' } }, { id: 'a', action: { kind: 'status' } }, 7])).toEqual({
      ok: false,
      problems: ['[1].action.status is required for kind status', "[1].id 'a' is given twice; every rule needs its own id", '[2] must be an object, got number 7'],
    });
    expect(checkFaultRules([{ action: { kind: 'delay' }, every: 0 }])).toEqual({ ok: false, problems: ['[0].every must be 1 or more, got number 0', '[0].action.ms is required for kind delay'] });
    expect(checkFaultRules([])).toEqual({ ok: false, problems: ['the list of rules is empty; give at least one rule'] });
  });

  it.each(readdirSync(READY_SCRIPTS).filter((file) => file.endsWith('.json')))('accepts the ready script fixtures/faults/%s', (file) => {
    const check = checkFaultRules(JSON.parse(readFileSync(join(READY_SCRIPTS, file), 'utf8')));
    expect(check).toMatchObject({ ok: true });
  });
});

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
