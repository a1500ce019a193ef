/**
 * The last route: 405 with Allow for a POS path called with another method, 404 for everything else. A read of the
 * refund endpoint, or of a path below it, is v1's wait for a refund's result, and the answer says why v2 has none.
 */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { REFUND_RESULT_INSTEAD, v1QueryHabits, waitsForRefundResult } from '../migration/v1-habits.js';
import { allowedMethods, routePathOf, type Route } from './route.js';

export function notFound(routes: ReadonlyArray<Route<never>>): RequestHandler {
  const served = routes.filter((route) => route.api === 'pos').map((route) => `${route.method} ${route.path}`);
  const SERVED = `${served.slice(0, -1).join(', ')} and ${served.at(-1)}`;
  return (req) => {
    // v1's ways of asking what v2 does not serve: a wait for a refund's result, ?action=UpdateOrderState.
    const habits = [...(waitsForRefundResult(req.method, routePathOf(req.path)) ? [REFUND_RESULT_INSTEAD] : []), ...v1QueryHabits(req.query as Record<string, unknown>)];
    const v1 = habits.map((habit) => `; ${habit}`).join('');
    const allowed = allowedMethods(routes, req.path);
    if (allowed.length > 0) {
      throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allowed.join(' or ')}${v1}`, { headers: { Allow: allowed.join(', ') } });
    }
    throw new ApiError('NOT_FOUND', `no endpoint at ${req.method} ${req.path}; the sandbox serves ${SERVED} under /, /v2 and /v1/pos/openapi${v1}`);
  };
}
