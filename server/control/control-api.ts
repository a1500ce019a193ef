/** The control API under /_sandbox: readiness, then the guards, the redaction of every answer, the routes, and 404 for the rest. */
import { Router, type RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { routeFinder, type ControlRoute, type Route } from '../http/route.js';
import type { Redactor } from '../journal/redactor.js';
import { adminGuard, crossSiteGuard } from './control-guards.js';

export const CONTROL_MOUNT = '/_sandbox';

/** Every JSON answer is redacted as the journal is (an ExternalId may be the key), but for routes whose answer is redacted already or holds a token on purpose. */
function redactAnswers(redactor: Redactor, unredacted: (method: string, path: string) => unknown): RequestHandler {
  return (req, res, next) => {
    if (unredacted(req.method, `${CONTROL_MOUNT}${req.path}`) !== undefined) return next();
    const json = res.json.bind(res);
    res.json = ((body: unknown) => json(redactor.value(body))) as typeof res.json;
    next();
  };
}

interface ControlDeps {
  adminToken?: string;
  listenHost?: string;
  forwardKey?: string;
  journal: { redactor: Redactor };
}

export function controlRouter<D extends ControlDeps>(deps: D, routes: ReadonlyArray<Route<D>>): Router {
  const router = Router();
  const control = routes.filter((route): route is ControlRoute<D> => route.api === 'control');
  const mount = (route: ControlRoute<D>) => router[route.method === 'DELETE' ? 'delete' : (route.method.toLowerCase() as 'get' | 'post' | 'put')](route.path.slice(CONTROL_MOUNT.length), route.handle(deps));
  // One envelope for the whole control API, even on paths that end in /menu.
  router.use((_req, res, next) => {
    res.locals.family = 'order';
    next();
  });
  control.filter((route) => route.open).forEach(mount);
  // Before the token check: a page in a browser is refused whatever it sends.
  router.use(crossSiteGuard({ listenHost: deps.listenHost, adminToken: deps.adminToken !== undefined }));
  router.use(adminGuard(deps.adminToken, deps.forwardKey));
  router.use(redactAnswers(deps.journal.redactor, routeFinder(control.filter((route) => route.unredacted))));
  control.filter((route) => !route.open).forEach(mount);
  router.use((req) => {
    throw new ApiError('NOT_FOUND', `no control endpoint at ${req.method} ${CONTROL_MOUNT}${req.path}; GET ${CONTROL_MOUNT}/openapi.json describes them all`);
  });
  return router;
}
