/**
 * The first stage of a partner's requests: its request rate (processing/quota-book.ts), before the body is read or
 * anything is journaled. A refused request costs the process next to nothing, and is counted, not journaled (the
 * journal would otherwise hold the flood instead of the calls worth reading). Readiness and the dashboard's files
 * hold no data and pass; so do the sandbox's own checklist runs, paced by the run quota.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { envelopeFamilyFor } from '../errors.js';
import type { QuotaBook } from '../processing/quota-book.js';

/** The header a checklist run of this sandbox sends with its runner token. */
export const RUNNER_HEADER = 'x-sandbox-run';

export function requestQuota(book: QuotaBook): RequestHandler {
  const runner = digest(book.runnerToken);
  return (req, res, next) => {
    if (book.quotas.requestsPerSecond === null || passes(req.method, req.path)) return next();
    const sent = req.headers[RUNNER_HEADER];
    if (typeof sent === 'string' && timingSafeEqual(digest(sent), runner)) return next();
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

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
