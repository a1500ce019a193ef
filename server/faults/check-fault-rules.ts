/**
 * Checks fault rules from the API or a --faults file: the JSON Schema (server/faults/fault-rule.schema.json, with ajv)
 * for the shape, then the rules a schema words badly: which parameters a kind takes, which kinds are outbound only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options, ValidateFunction } from 'ajv';
import { schemaMessages } from '../http/schema-messages.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { PACKAGE_ROOT } from '../version.js';
import { FAULT_KINDS, KIND_PARAMETERS, OUTBOUND_ONLY_KINDS, STATUS_FAULT_RANGE, type FaultParameter } from './fault-kinds.js';
import type { FaultRule } from './fault-rule-types.js';

export const FAULT_RULE_SCHEMA_FILE = join(PACKAGE_ROOT, 'server', 'faults', 'fault-rule.schema.json');

export type FaultRulesCheck = { ok: true; rules: FaultRule[] } | { ok: false; problems: string[] };

/** How the schema is compiled (`tsType` only tells the type generator that `body` is any JSON); `npm run build` too. */
export const FAULT_RULE_AJV_OPTIONS: Options = { allErrors: true, verbose: true, keywords: ['tsType'] };

let compiled: { schema: object; validate: ValidateFunction<FaultRule> } | undefined;

/** The schema, parsed once, and its validator. */
export function faultRuleSchema(): { schema: object; validate: ValidateFunction<FaultRule> } {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(FAULT_RULE_SCHEMA_FILE, 'utf8')) as object;
  compiled = { schema, validate: compileSchema<FaultRule>(() => newAjv(FAULT_RULE_AJV_OPTIONS), FAULT_RULE_AJV_OPTIONS, schema) };
  return compiled;
}

const ROOT = '\u0000';

/**
 * One rule or a list of rules. Each problem names its JSON path: `action.status …` for one rule,
 * `[2].action.status …` in a list. Ids must be unique within the list.
 */
export function checkFaultRules(value: unknown): FaultRulesCheck {
  const list = Array.isArray(value);
  const candidates: unknown[] = list ? value : [value];
  if (candidates.length === 0) return { ok: false, problems: ['the list of rules is empty; give at least one rule'] };
  const problems: string[] = [];
  const ids = new Set<string>();
  candidates.forEach((candidate, index) => {
    const where = (path: string): string => {
      if (!list) return path === ROOT ? 'the rule' : path;
      return path === ROOT ? `[${index}]` : `[${index}].${path}`;
    };
    // Messages come back relative to the rule, its own root as ROOT, and get the list index in front.
    for (const problem of checkOne(candidate)) problems.push(problem.startsWith(ROOT) ? where(ROOT) + problem.slice(1) : where(problem.split(' ')[0]!) + problem.slice(problem.indexOf(' ')));
    const id = (candidate as { id?: unknown } | null)?.id;
    if (typeof id === 'string') {
      if (ids.has(id)) problems.push(`${where('id')} '${id}' is given twice; every rule needs its own id`);
      ids.add(id);
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rules: candidates as FaultRule[] };
}

/** The problems of one rule, each starting with its path within the rule (ROOT for the rule itself). */
function checkOne(candidate: unknown): string[] {
  const { validate } = faultRuleSchema();
  const problems = validate(candidate) ? [] : schemaMessages(validate.errors, ROOT);
  // The rules of a kind are checked even when the shape has other problems, so one answer lists them all.
  const rule = candidate as Partial<FaultRule> | null;
  const action = rule?.action;
  if (typeof action !== 'object' || action === null || !(FAULT_KINDS as readonly unknown[]).includes(action.kind)) return problems;
  const { kind } = action;
  const parameters = KIND_PARAMETERS[kind];
  for (const name of parameters.required) {
    if (action[name] === undefined) problems.push(`action.${name} is required for kind ${kind}`);
  }
  for (const name of ['status', 'body', 'contentType', 'ms', 'retryAfter'] as FaultParameter[]) {
    if (action[name] !== undefined && !parameters.required.includes(name) && !parameters.optional.includes(name)) {
      const takes = [...parameters.required, ...parameters.optional];
      problems.push(`action.${name} is not a parameter of kind ${kind} (it takes ${takes.length > 0 ? takes.join(', ') : 'none'})`);
    }
  }
  const status = action.status;
  if (kind === 'status' && typeof status === 'number' && (status < STATUS_FAULT_RANGE.min || status > STATUS_FAULT_RANGE.max)) {
    problems.push(
      `action.status must be from ${STATUS_FAULT_RANGE.min} to ${STATUS_FAULT_RANGE.max} for kind status, got ${status}: an injected 2xx would claim work that was not done`,
    );
  }
  if (kind === 'status' && action.contentType !== undefined && action.body === undefined) problems.push('action.contentType goes with action.body: it says what the body is');
  const direction = typeof rule?.match === 'object' && rule.match !== null ? rule.match.direction : undefined;
  if (OUTBOUND_ONLY_KINDS.includes(kind) && direction !== 'outbound') {
    problems.push(`action.kind ${kind} applies to orders the sandbox sends: set match.direction to "outbound"`);
  }
  if (direction === 'outbound' && rule?.match?.partner !== undefined) {
    problems.push(`match.partner applies to inbound calls only: an order's token is the sandbox's own`);
  }
  if (direction !== 'outbound' && rule?.match?.orderId !== undefined) {
    problems.push('match.orderId applies to outbound deliveries only: set match.direction to "outbound" (a POS call names its order by ExternalId)');
  }
  return problems;
}
