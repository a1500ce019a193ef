/**
 * The fault stage: after the journal is opened, before authentication. The x-sandbox-fault header
 * wins over the rules; a rule that fires answers in place of the service, so an injected failure changes no state.
 */
import type { Request, RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor } from '../errors.js';
import { viewToken } from '../journal/journal-entry.js';
import { FAULT_HEADER, parseFaultHeader } from './fault-header.js';
import { injectedReply } from './injected-reply.js';
import { faultLabel, type FiredFault } from './fault-registry.js';
import type { FaultBook } from './fault-book.js';
import type { QuotaBook } from '../hosted/quota-book.js';
import { bodyTextReader } from '../http/json-body.js';

export const FAULT_RULE_HEADER = 'x-sandbox-fault-rule';

/** The longest a hang holds a request: then the connection is closed, and the journal says so. */
export const HANG_LIMIT_MS = 10 * 60 * 1000;

export function injectFaults(faults: FaultBook, quota: QuotaBook): RequestHandler {
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
        // Never answered: the journal entry is written when the client gives up, or when the hang has held long enough.
        // The body is read all the same, so the journal shows what was held (the ExternalId of a refund, say).
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
        // The body is read first (within the partner's limit), so the journal shows what met the fault: the
        // ExternalId of a refund answered 503, say. A body that cannot be read is left out; the reply is the same.
        readBody(req, res, () => {
          const reply = injectedReply(fault.action, envelopeFamilyFor(req.path), faultLabel(fault));
          res.status(reply.status).set(reply.headers).send(reply.body);
        });
      }
    }
  };
}

function chooseFault(req: Request, faults: FaultBook): FiredFault | undefined {
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
  });
}
