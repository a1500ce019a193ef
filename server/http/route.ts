/** The declaration of one endpoint, which the app, the hosted front, the metrics and the OpenAPI document all read. */
import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { ApiError, type EnvelopeFamily } from '../errors.js';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The POS API (§4) is mounted under each of these: the base URL, §9's /v2, and §4.3's migration paths. */
export const POS_MOUNTS = ['/', '/v2', '/v1/pos/openapi'] as const;

/** What the OpenAPI document says of a POS operation; the shared headers, statuses and fault notes are added to it. */
export interface PosDoc {
  name: string;
  summary: string;
  /** What it does, citing the interface (§N). */
  description: string;
  body: object;
  ok: string;
  okHeader: [string, object];
  invalid: string;
  envelope: 'OrderErrorEnvelope' | 'MenuErrorEnvelope';
  /** Statuses only this operation answers, e.g. 409. */
  more?: Record<string, string>;
}

interface Declared<D> {
  method: RouteMethod;
  /** An Express 5 path: `/order/refund` under each POS mount, `/_sandbox/orders/:id` as it is. */
  path: string;
  handle(deps: D): RequestHandler | RequestHandler[];
}

/** A POS call: through every stage of the pipeline (server/pipeline.ts), in its envelope family (§2.3). */
export interface PosRoute<D> extends Declared<D> {
  api: 'pos';
  family: EnvelopeFamily;
  doc: PosDoc;
}

/** What the front of a hosted sandbox shows its operator. */
export interface OperatorView {
  partners: ReadonlyArray<{ name: string; listing(): Record<string, unknown>; health(): Promise<Record<string, unknown>> }>;
  version: string;
  instanceId: string;
  startedAt: number;
  clock(): number;
  metrics: { render(): Promise<{ body: string; contentType: string }> };
}

/** A call of the control API, behind its guards unless `open`; on a hosted sandbox one partner's, unless `hosted: 'any'`, and `operator` answers the operator's token. */
export interface ControlRoute<D> extends Declared<D> {
  api: 'control';
  doc?: object;
  open?: true;
  /** Its answer is redacted already (the journal's), or holds a token on purpose: the control API's redaction leaves it. */
  unredacted?: true;
  hosted?: 'any';
  operator?(view: OperatorView): RequestHandler;
}

/** Open to anyone, whatever the method (405 for another): the report keys. */
export interface PublicRoute<D> extends Declared<D> {
  api: 'public';
  doc: object;
}

/** The dashboard's files: no data, so on a hosted sandbox any partner's sandbox serves them. */
export interface PageRoute<D> extends Declared<D> {
  api: 'page';
}

/** The operator's alone, and only on a hosted sandbox's front. */
export interface OperatorRoute extends Declared<OperatorView> {
  api: 'operator';
}

export type Route<D> = PosRoute<D> | ControlRoute<D> | PublicRoute<D> | PageRoute<D> | OperatorRoute;

/** The paths of a POS route, one under each mount. */
export function posPaths(path: string): string[] {
  return POS_MOUNTS.map((mount) => `${mount === '/' ? '' : mount}${path}`);
}

/** A path without its POS mount, as Express matches it (any case, trailing slashes ignored): `/v2/order/refund` → `/order/refund`. */
export function routePathOf(path: string): string {
  const normalized = withoutTrailingSlashes(path).toLowerCase() || '/';
  for (const mount of POS_MOUNTS) {
    if (mount !== '/' && normalized.startsWith(`${mount.toLowerCase()}/`)) return normalized.slice(mount.length);
  }
  return normalized;
}

/** The methods the POS routes answer at a path; empty when it is none of theirs. */
export function allowedMethods(routes: ReadonlyArray<Route<never>>, path: string): string[] {
  const routePath = routePathOf(path);
  return routes.filter((route) => route.api === 'pos' && route.path === routePath).map((route) => route.method);
}

/** A route answered whatever the method: another method than its own is 405, with Allow naming it. */
export function anyMethod(route: { method: RouteMethod; path: string }, handlers: RequestHandler | RequestHandler[]): RequestHandler[] {
  const allow = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
  const check: RequestHandler = (req, res, next) => {
    res.locals.family = 'order';
    if (!allow.includes(req.method)) throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${route.path}; use ${route.method}`, { headers: { Allow: route.method } });
    next();
  };
  return [check, ...[handlers].flat()];
}

/** The route a request names, matched as Express matches (any case, a trailing slash), a POS route under each mount; `anyMethod` for a route whatever the method. */
export function routeFinder<R extends Route<never>>(routes: readonly R[], anyMethod = false): (method: string, path: string) => R | undefined {
  const matchers = routes.flatMap((route) => (route.api === 'pos' ? posPaths(route.path) : [route.path]).map((path) => ({ route, matches: match(path, { decode: false }) })));
  const takes = (route: R, method: string) => anyMethod || route.method === method || (route.method === 'GET' && method === 'HEAD');
  return (method, path) => matchers.find(({ route, matches }) => takes(route, method) && matches(path) !== false)?.route;
}

/** Pure: a path without its trailing slashes, in time linear in its length whatever a client sends. */

/** A loop, not /\/+$/, which is quadratic in a run of slashes that does not end the path. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}
