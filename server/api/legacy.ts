/**
 * The retired v1 family /v1/pos/integration/* answers 410 with the v2 path to use (§4.3, §9), and v1's
 * UpdateOrderState, under whatever mount and in whatever spelling, 410 with the call that replaces it.
 */
import { Router, type RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor } from '../errors.js';
import { isUpdateOrderState, UPDATE_ORDER_STATE_INSTEAD } from '../domain/v1-habits.js';
import { LEGACY_MOUNT } from './pos-routes.js';

/** A path whose last segment is UpdateOrderState: v2 has no such endpoint, and says which one replaces it. */
export const updateOrderStateRetired: RequestHandler = (req, res, next) => {
  const last = req.path.replace(/\/+$/, '').split('/').at(-1) ?? '';
  if (!isUpdateOrderState(last)) return next();
  res.locals.family = 'order';
  throw new ApiError('ENDPOINT_RETIRED', `${req.method} ${req.baseUrl}${req.path} is v1's UpdateOrderState: ${UPDATE_ORDER_STATE_INSTEAD}`);
};

export function legacyRouter(): Router {
  const router = Router();
  router.use(updateOrderStateRetired);
  router.use((req, res) => {
    res.locals.family = envelopeFamilyFor(req.path);
    const rest = req.path === '/' ? '' : req.path;
    throw new ApiError(
      'ENDPOINT_RETIRED',
      `${LEGACY_MOUNT}${rest} is the retired v1 integration API; v2 serves ${req.method} /v2${rest || '/<endpoint>'} (also under /v1/pos/openapi${rest}), with a Bearer JWT (§4.3, §5)`,
    );
  });
  return router;
}
