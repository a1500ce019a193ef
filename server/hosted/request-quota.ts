/**
 * The first stage of a partner's requests: its request rate (processing/quota-book.ts), before the body is read or
 * anything is journaled. A refused request costs the process next to nothing, and is counted, not journaled (the
 * journal would otherwise hold the flood instead of the calls worth reading). Readiness and the dashboard's files
 * hold no data and pass. A checklist run the sandbox makes for the partner counts like any of its calls: a partner
 * flooding its own sandbox while a run polls it slows the run, never the other partners.
 */
import type { RequestHandler } from 'express';
import { envelopeFamilyFor } from '../errors.js';
import type { QuotaBook } from './quota-book.js';

export function requestQuota(book: QuotaBook): RequestHandler {
  return (req, res, next) => {
    if (book.quotas.requestsPerSecond === null || passes(req.method, req.path)) return next();
    res.locals.family = envelopeFamilyFor(req.path);
    book.takeRequest();
    next();
  };
}

function passes(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const lower = path.toLowerCase();
  return lower === '/' || lower === '/_sandbox/ready' || lower === '/_sandbox/ui' || lower.startsWith('/_sandbox/ui/');
}
