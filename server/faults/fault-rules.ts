/** Pure data: what each fault kind does, which direction it applies to and which parameters it takes. */
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import type { Options, ValidateFunction } from 'ajv';
import { schemaMessages } from '../http/messages.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';
import { PACKAGE_ROOT } from '../version.js';
import type { FaultRule, FaultAction } from './fault-rule-types.js';
import { ConfigError } from '../config.js';

export const FAULT_KINDS = [
  'status',
  'delay',
  'drop',
  'hang',
  'malformed',
  'rate-limit',
  'bad-signature',
  'expired-token',
  'wrong-audience',
  'duplicate',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Token and delivery faults only make sense on an order the sandbox sends. */
export const OUTBOUND_ONLY_KINDS: readonly FaultKind[] = ['bad-signature', 'expired-token', 'wrong-audience', 'duplicate'];

export type FaultParameter = 'status' | 'body' | 'contentType' | 'ms' | 'retryAfter';

/** For each kind: the parameters it needs, and those it may take. */
export const KIND_PARAMETERS: Record<FaultKind, { required: FaultParameter[]; optional: FaultParameter[] }> = {
  status: { required: ['status'], optional: ['body', 'contentType'] },
  delay: { required: ['ms'], optional: [] },
  drop: { required: [], optional: [] },
  hang: { required: [], optional: [] },
  malformed: { required: [], optional: ['status'] },
  'rate-limit': { required: [], optional: ['retryAfter'] },
  'bad-signature': { required: [], optional: [] },
  'expired-token': { required: [], optional: [] },
  'wrong-audience': { required: [], optional: [] },
  duplicate: { required: [], optional: [] },
};

/** A status fault answers an error: a 2xx that did nothing would lie about the state. */
export const STATUS_FAULT_RANGE = { min: 400, max: 599 } as const;
export const DEFAULT_MALFORMED_STATUS = 500;
export const DEFAULT_RETRY_AFTER_S = 1;

/** The rule's shape from its JSON Schema, then what a schema words badly: which parameters a kind takes, which kinds are outbound only. */

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

/** One rule or a list, each problem named by its JSON path (`[2].action.status …` in a list); ids unique within the list. */
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

/** Pure: the per-request header, `x-sandbox-fault: status=503 | delay=1500 | drop | hang | malformed | rate-limit=5`. */

export const FAULT_HEADER = 'x-sandbox-fault';

export const FAULT_HEADER_SYNTAX =
  'status=<400-599> | delay=<ms> | drop | hang | malformed[=<status>] | rate-limit[=<Retry-After seconds>]';

export type FaultHeaderParse = { ok: true; action: FaultAction } | { ok: false; problem: string };

export function parseFaultHeader(raw: string): FaultHeaderParse {
  const value = raw.trim();
  const [name = '', argument] = value.split('=', 2).map((part) => part.trim());
  const whole = (min: number, max: number): number | undefined => {
    if (argument === undefined || !/^\d+$/.test(argument)) return undefined;
    const number = Number(argument);
    return number >= min && number <= max ? number : undefined;
  };
  const fail = (why: string): FaultHeaderParse => ({ ok: false, problem: `${FAULT_HEADER} '${value}' ${why}; use one of: ${FAULT_HEADER_SYNTAX}` });

  switch (name.toLowerCase()) {
    case 'status': {
      const status = whole(STATUS_FAULT_RANGE.min, STATUS_FAULT_RANGE.max);
      return status === undefined ? fail('needs a status from 400 to 599') : { ok: true, action: { kind: 'status', status } };
    }
    case 'delay': {
      const ms = whole(0, 600_000);
      return ms === undefined ? fail('needs milliseconds from 0 to 600000') : { ok: true, action: { kind: 'delay', ms } };
    }
    case 'drop':
    case 'hang':
      return argument === undefined ? { ok: true, action: { kind: name.toLowerCase() as 'drop' | 'hang' } } : fail('takes no value');
    case 'malformed': {
      if (argument === undefined) return { ok: true, action: { kind: 'malformed' } };
      const status = whole(200, 599);
      return status === undefined ? fail('takes a status from 200 to 599, or nothing') : { ok: true, action: { kind: 'malformed', status } };
    }
    case 'rate-limit': {
      if (argument === undefined) return { ok: true, action: { kind: 'rate-limit', retryAfter: DEFAULT_RETRY_AFTER_S } };
      const retryAfter = whole(0, 86_400);
      return retryAfter === undefined ? fail('takes Retry-After seconds from 0 to 86400, or nothing') : { ok: true, action: { kind: 'rate-limit', retryAfter } };
    }
    default:
      return fail(value === '' ? 'is empty' : 'is not understood');
  }
}

/** Reads a --faults file: a JSON list of fault rules (or one rule), checked like POST /_sandbox/faults. */

export function loadFaultFile(file: string, readyScriptsDir?: string): FaultRule[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const ready = readyScriptsDir ? readyScripts(readyScriptsDir) : '';
    throw new ConfigError(`--faults ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}${ready}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--faults ${file}: not JSON (${(error as Error).message}); it must be a JSON list of fault rules, like the ready scripts in fixtures/faults/`);
  }
  const check = checkFaultRules(value);
  if (!check.ok) {
    throw new ConfigError(`--faults ${file} is not a valid list of fault rules:\n${check.problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return check.rules;
}

function readyScripts(dir: string): string {
  try {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
    return files.length > 0 ? `; ready scripts are in ${dir}/: ${files.join(', ')}` : '';
  } catch {
    return ` (and ${dirname(dir)} has no ready scripts)`;
  }
}

/** A ready script of fixtures/faults/: its name (the file's, without .json) and its rules, checked. */
export interface ReadyScript {
  name: string;
  rules: FaultRule[];
}

/** Every ready script of `dir` that holds a valid list of rules, by name; a broken file is left out, not fatal. */
export function loadReadyScripts(dir: string): ReadyScript[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const scripts: ReadyScript[] = [];
  for (const file of files) {
    try {
      scripts.push({ name: file.slice(0, -'.json'.length), rules: loadFaultFile(join(dir, file)) });
    } catch {
      // Not a list of rules: the dashboard offers only what it could add.
    }
  }
  return scripts;
}
