/**
 * The first stage of a partner's requests: its request rate, before the body is read or anything is journaled, so a
 * refused request costs next to nothing and the journal keeps the calls worth reading. The dashboard's files and
 * readiness hold no data and pass; a checklist run the sandbox makes for the partner counts like any of its calls.
 */
import type { RequestHandler } from 'express';
import { envelopeFamilyFor } from '../errors.js';
import { routeFinder, type Route } from '../http/route.js';
import type { QuotaBook } from './quota-book.js';

export function requestQuota(book: QuotaBook, routes: ReadonlyArray<Route<never>>): RequestHandler {
  const free = routeFinder(routes.filter((route) => route.api === 'page' || (route.api === 'control' && route.hosted === 'any')));
  return (req, res, next) => {
    if (book.quotas.requestsPerSecond === null || free(req.method, req.path) !== undefined) return next();
    res.locals.family = envelopeFamilyFor(req.path);
    book.takeRequest();
    next();
  };
}
