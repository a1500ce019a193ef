/** The retired v1 family /v1/pos/integration/* answers 410 with the v2 path to use (§4.3, §9). */
import { Router } from 'express';
import { ApiError, envelopeFamilyFor } from '../errors.js';
import { LEGACY_MOUNT } from './pos-routes.js';

export function legacyRouter(): Router {
  const router = Router();
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
