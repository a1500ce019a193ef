/** The fault stage, before authentication: the x-sandbox-fault header wins over the rules, and a fault answers in place of the service, changing no state. */
import type { Request, RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor, renderEnvelope, type EnvelopeFamily } from '../errors.js';
import { viewToken } from '../journal/journal-entry.js';
import { FAULT_HEADER, parseFaultHeader, DEFAULT_MALFORMED_STATUS, DEFAULT_RETRY_AFTER_S } from './fault-rules.js';
import { faultLabel, type FiredFault } from './fault-registry.js';
import type { FaultRegistry } from './fault-registry.js';
import type { QuotaBook } from '../hosted/quotas.js';
import { bodyTextReader } from '../http/json-body.js';
import { STATUS_CODES } from 'node:http';
import type { FaultAction } from './fault-rule-types.js';

export const FAULT_RULE_HEADER = 'x-sandbox-fault-rule';

/** The longest a hang holds a request: then the connection is closed, and the journal says so. */
export const HANG_LIMIT_MS = 10 * 60 * 1000;

export function injectFaults(faults: FaultRegistry, quota: QuotaBook): RequestHandler {
  const readBody = bodyTextReader(quota.quotas.bodyBytes);
  // Not async: every POS call passes here, and most find no fault (npm run bench).
  return (req, res, next) => {
    const fault = chooseFault(req, faults);
    if (!fault) return next();
    // A held request holds a connection: so many at once (heldRequests), else a 429 in place of the fault.
    const release = fault.kind === 'delay' || fault.kind === 'hang' ? quota.holdRequest(fault.kind) : undefined;
    res.locals.fault = { rule: fault.rule, kind: fault.kind, source: fault.source, ...(fault.description ? { description: fault.description } : {}) };
    res.set(FAULT_RULE_HEADER, fault.rule);
    switch (fault.kind) {
      case 'delay': {
        res.once('close', release!);
        // The request is then handled for real, even if the client gave up meanwhile: as a slow service would.
        setTimeout(next, fault.action.ms ?? 0);
        return;
      }
      case 'drop':
        req.socket.destroy();
        return;
      case 'hang': {
        // Never answered; the body is read all the same, so the journal shows what was held.
        readBody(req, res, () => undefined);
        const limit = setTimeout(() => {
          res.locals.hangEnded = HANG_LIMIT_MS;
          req.socket.destroy();
        }, HANG_LIMIT_MS);
        limit.unref();
        res.once('close', () => {
          clearTimeout(limit);
          release!();
        });
        return;
      }
      default: {
        // The body is read first (within the partner's limit), so the journal shows what met the fault.
        readBody(req, res, () => {
          const reply = injectedReply(fault.action, envelopeFamilyFor(req.path), faultLabel(fault));
          res.status(reply.status).set(reply.headers).send(reply.body);
        });
      }
    }
  };
}

function chooseFault(req: Request, faults: FaultRegistry): FiredFault | undefined {
  const header = req.get(FAULT_HEADER);
  if (header !== undefined) {
    const parsed = parseFaultHeader(header);
    if (!parsed.ok) throw new ApiError('INVALID_REQUEST', parsed.problem);
    return { rule: FAULT_HEADER, kind: parsed.action.kind, action: parsed.action, source: 'header' };
  }
  if (faults.size === 0) return undefined;
  const iss = viewToken(req.get('authorization'))?.claims?.iss;
  return faults.pick({
    direction: 'inbound',
    method: req.method,
    path: req.path,
    locationId: req.get('x-service-locationid')?.trim() || undefined,
    partner: typeof iss === 'string' ? iss : undefined,
  }).fired;
}

/** Pure: the answer a status, malformed or rate-limit fault gives; without a body of its own, the envelope of its family (§2.3), saying it was injected and nothing was processed. */

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
      // As the rule declares it, never guessed: a rule from a shared file must not serve a script on the sandbox's own origin.
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

/** An injected answer sniffs, runs and frames nothing in a browser, so a fault rule's page can never act as the sandbox's own. */
export const INJECTED_ANSWER_POLICY = "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function answer(status: number, type: string, body: string): InjectedReply {
  return { status, headers: { 'content-type': type, 'x-content-type-options': 'nosniff', 'content-security-policy': INJECTED_ANSWER_POLICY }, body };
}

function json(status: number, body: string): InjectedReply {
  return answer(status, 'application/json; charset=utf-8', body);
}
