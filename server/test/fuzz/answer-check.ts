/**
 * Pure: what every answer of the sandbox must be, whatever was sent. No 5xx; every 4xx is JSON in the §2.3
 * envelope of its endpoint (`code`/`message` for orders and the control API, `Code`/`Message` for menus),
 * each message a non-empty sentence.
 */
import type { EnvelopeFamily } from '../../errors.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type ProblemKind = '5xx' | 'envelope' | 'no-answer' | 'crash' | 'state' | 'rule';

export interface AnswerProblem {
  kind: ProblemKind;
  detail: string;
}

/** The header of an answer a fault rule or x-sandbox-fault made on purpose (see docs/fuzzing.md): not the sandbox failing. */
export const INJECTED_FAULT_HEADER = 'x-sandbox-fault-rule';

/** `family: 'any'` when the request was too broken to say which endpoint it was for. */
export function answerProblems(answer: Answer, family: EnvelopeFamily | 'any'): AnswerProblem[] {
  if (answer.headers[INJECTED_FAULT_HEADER] !== undefined) return [];
  const problems: AnswerProblem[] = [];
  if (answer.status >= 500) problems.push({ kind: '5xx', detail: `${answer.status} ${answer.body.slice(0, 300)}` });
  if (answer.status >= 400 && answer.status < 500) {
    const envelope = envelopeProblem(answer, family);
    if (envelope) problems.push({ kind: 'envelope', detail: `${answer.status}: ${envelope}` });
  }
  if (answer.status < 100 || answer.status > 599) problems.push({ kind: 'envelope', detail: `status ${answer.status} is not an HTTP status` });
  return problems;
}

/** Why a 4xx body is not the envelope of `family`, or undefined when it is. */
export function envelopeProblem(answer: Answer, family: EnvelopeFamily | 'any'): string | undefined {
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.body === '') return `empty body (content-type '${type}'); a refusal carries the §2.3 envelope`;
  if (!/^application\/json\b/i.test(type)) return `content-type '${type}', not application/json: ${answer.body.slice(0, 200)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return `body is not JSON: ${answer.body.slice(0, 200)}`;
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `no non-empty errors list: ${answer.body.slice(0, 200)}`;
  const families: EnvelopeFamily[] = family === 'any' ? ['order', 'menu'] : [family];
  const fitting = families.find((candidate) => errors.every((entry) => entryProblem(entry, candidate) === undefined));
  if (fitting) return undefined;
  const [first = 'order'] = families;
  const bad = errors.map((entry) => entryProblem(entry, first)).find((problem) => problem !== undefined);
  return `${bad} (${first} family): ${answer.body.slice(0, 200)}`;
}

function entryProblem(entry: unknown, family: EnvelopeFamily): string | undefined {
  const [codeKey, messageKey] = family === 'menu' ? ['Code', 'Message'] : ['code', 'message'];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'an error entry is not an object';
  const keys = Object.keys(entry).sort();
  if (keys.join() !== [codeKey, messageKey].sort().join()) return `an error entry has keys ${keys.join(', ')}, not ${codeKey} and ${messageKey}`;
  const record = entry as Record<string, unknown>;
  if (typeof record[codeKey] !== 'string' || (record[codeKey] as string).trim() === '') return `${codeKey} is not a non-empty string`;
  if (typeof record[messageKey] !== 'string' || (record[messageKey] as string).trim() === '') return `${messageKey} is not a non-empty string`;
  return undefined;
}
