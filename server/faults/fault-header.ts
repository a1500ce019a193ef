/**
 * Pure: the per-request fault header (x-sandbox-fault),
 * `x-sandbox-fault: status=503 | delay=1500 | drop | hang | malformed | rate-limit=5` (one of them per request).
 */
import { DEFAULT_RETRY_AFTER_S, STATUS_FAULT_RANGE } from './fault-kinds.js';
import type { FaultAction } from './fault-rule-types.js';

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
