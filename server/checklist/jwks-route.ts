/**
 * GET /.well-known/jwks.json: the public keys this sandbox's reports are signed with (RFC 7517), every kid still
 * valid for verification, retired ones marked, never a private member. Open to anyone, as a key set is: the
 * service's team fetches it to check a report (`verify-report --keys URL`).
 */
import type { Express } from 'express';
import { JWKS_PATH, jwksOf, type ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { ApiError } from '../errors.js';

export { JWKS_PATH };

export function mountJwks(app: Express, keys: ReportKeys): void {
  // Rendered once: the keys are fixed for the process.
  const body = JSON.stringify(jwksOf(keys.keys));
  app.all(JWKS_PATH, (req, res) => {
    res.locals.family = 'order';
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${JWKS_PATH}; use GET`, { headers: { Allow: 'GET' } });
    res.set({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }).send(body);
  });
}
