/**
 * Pure: the answer a status, malformed or rate-limit fault gives. Without a body of its own, a status fault answers the
 * error envelope of its endpoint family (§2.3: lowercase code/message for refund and order status, Code/Message for menu),
 * and the message says it was injected and that nothing was processed.
 */
import { STATUS_CODES } from 'node:http';
import { renderEnvelope, type EnvelopeFamily } from '../errors.js';
import { DEFAULT_MALFORMED_STATUS, DEFAULT_RETRY_AFTER_S } from './fault-kinds.js';
import type { FaultAction } from './fault-rule-types.js';

export interface InjectedReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The code an injected status carries: the catalogue's when the sandbox has one, else the status's own name. */
export function faultErrorCode(status: number, family: EnvelopeFamily): string {
  const known: Record<number, string> = {
    400: family === 'menu' ? 'VALIDATION_ERROR' : 'INVALID_PAYLOAD',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    409: 'INVALID_STATE',
    413: 'PAYLOAD_TOO_LARGE',
    429: 'TOO_MANY_REQUESTS',
    500: 'INTERNAL_ERROR',
    502: 'BAD_GATEWAY',
    503: 'SERVICE_UNAVAILABLE',
    504: 'GATEWAY_TIMEOUT',
  };
  const name = STATUS_CODES[status];
  return known[status] ?? (name ? name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '') : `HTTP_${status}`);
}

/** Only for status, malformed and rate-limit; the other kinds do not answer by themselves. `by` names the rule or the header. */
export function injectedReply(action: FaultAction, family: EnvelopeFamily, by: string): InjectedReply {
  const envelope = (status: number, message: string) => JSON.stringify(renderEnvelope(family, faultErrorCode(status, family), [message]));
  const injected = `injected by the sandbox (${by}); nothing was processed`;
  switch (action.kind) {
    case 'status': {
      const status = action.status!;
      if (action.body === undefined) return json(status, envelope(status, `${status} ${STATUS_CODES[status] ?? ''}`.trim() + `: ${injected}`));
      // As the rule declares it, never guessed from the body: a rule from a shared file could otherwise serve a page
      // with a script on the sandbox's own origin, where the dashboard and the control API are.
      if (typeof action.body === 'string') return answer(status, action.contentType ?? 'text/plain; charset=utf-8', action.body);
      return answer(status, action.contentType ?? 'application/json; charset=utf-8', JSON.stringify(action.body));
    }
    case 'rate-limit': {
      const seconds = action.retryAfter ?? DEFAULT_RETRY_AFTER_S;
      const reply = json(429, envelope(429, `rate limit exceeded, retry after ${seconds} s: ${injected}`));
      return { ...reply, headers: { ...reply.headers, 'retry-after': String(seconds) } };
    }
    case 'malformed': {
      const status = action.status ?? DEFAULT_MALFORMED_STATUS;
      const whole = envelope(status, `${STATUS_CODES[status] ?? status}: ${injected}`);
      // Cut mid-string: declared JSON that no parser accepts, as a proxy that truncates a body sends it.
      return json(status, whole.slice(0, Math.ceil(whole.length / 2)));
    }
    default:
      throw new Error(`fault kind ${action.kind} has no reply of its own`);
  }
}

/**
 * Whatever an injected answer holds, a browser that opens it sniffs nothing and runs nothing: no script, no form, no
 * frame, a unique origin (sandbox), so a page of a fault rule can never act as the sandbox's own.
 */
export const INJECTED_ANSWER_POLICY = "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function answer(status: number, type: string, body: string): InjectedReply {
  return { status, headers: { 'content-type': type, 'x-content-type-options': 'nosniff', 'content-security-policy': INJECTED_ANSWER_POLICY }, body };
}

function json(status: number, body: string): InjectedReply {
  return answer(status, 'application/json; charset=utf-8', body);
}
