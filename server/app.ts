/** createApp(deps): the Express app of one sandbox, every route of the table mounted behind its stages. No files, env, argv or listen here. */
import express, { type Express, type RequestHandler } from 'express';
import { controlRouter, CONTROL_MOUNT } from './control/control-api.js';
import { notFound } from './http/error-handler.js';
import { anyMethod, posPaths } from './http/route.js';
import { legacyRouter, LEGACY_MOUNT, updateOrderStateRetired } from './migration/migration-routes.js';
import { buildPipeline, takeLanesFirst } from './pipeline.js';
import { ROUTES, type AppDeps } from './routes.js';
import './http/locals.js';

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const pipeline = buildPipeline(deps, ROUTES);
  const lanes = new Map<string, RequestHandler>();
  app.use(pipeline.front);
  for (const route of ROUTES) if (route.api === 'page') app.get(route.path, route.handle(deps));
  app.use(CONTROL_MOUNT, controlRouter(deps, ROUTES));
  for (const route of ROUTES) if (route.api === 'public') app.all(route.path, anyMethod(route, route.handle(deps)));
  // Everything past the control API is journaled: the POS API, and whatever a POS sends elsewhere.
  app.use(pipeline.recorded);
  app.use(LEGACY_MOUNT, legacyRouter(ROUTES));
  for (const route of ROUTES) {
    if (route.api !== 'pos') continue;
    const handler = route.handle(deps) as RequestHandler;
    app[route.method === 'PUT' ? 'put' : 'post'](posPaths(route.path), pipeline.posRoute(route.family, handler));
    for (const path of posPaths(route.path)) lanes.set(`${route.method} ${path}`, pipeline.lane(route.family, handler));
  }
  // v1's UpdateOrderState under any mount: a 410 naming POST /order/status, not a plain 404 (§9).
  app.use(updateOrderStateRetired);
  app.use(notFound(ROUTES));
  app.use(pipeline.onError);
  takeLanesFirst(app, lanes, pipeline.onError);
  return app;
}
