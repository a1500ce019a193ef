/** The stages a request passes, in one ordered list (docs/lifecycle.md), which the router and the lanes both run. */
import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { EnvelopeFamily } from './errors.js';
import { injectFaults } from './faults/inbound-faults.js';
import { errorHandler } from './http/error-handler.js';
import { requireHostHeader } from './http/http-parser-errors.js';
import { bodyTextReader, parseBody } from './http/json-body.js';
import { readLocation } from './http/pos-call.js';
import { requestId, requestLog } from './http/request-log.js';
import type { Route } from './http/route.js';
import { series } from './http/series.js';
import { requestQuota } from './hosted/quotas.js';
import { recordJournal } from './journal/journal-recorder.js';
import { noteMigrationHeaders } from './migration/migration-headers.js';
import type { AppDeps } from './routes.js';
import { authenticate } from './tokens/authenticate.js';

/** Which requests a stage runs for: every one, every one outside the control API and the dashboard, or a POS route's. */
type Scope = 'every request' | 'recorded' | 'POS route';

interface Stage {
  name: string;
  scope: Scope;
  make(deps: AppDeps, routes: ReadonlyArray<Route<AppDeps>>): RequestHandler;
}

/** The stages in the order they run; the route's handler comes last, and the error handler after everything. */
export const STAGES: readonly Stage[] = [
  { name: 'request id', scope: 'every request', make: (deps) => requestId(deps.newId ?? randomUUID) },
  { name: 'Host header', scope: 'every request', make: () => requireHostHeader },
  { name: 'request rate', scope: 'every request', make: (deps, routes) => requestQuota(deps.quota, routes) },
  { name: 'log line', scope: 'recorded', make: (deps) => requestLog(deps.logger, deps.clock, deps.partner.nonProdKey) },
  { name: 'journal', scope: 'recorded', make: (deps) => recordJournal({ journal: deps.journal, clock: deps.clock, partnerKey: deps.partner.nonProdKey, logger: deps.logger }) },
  { name: 'faults', scope: 'recorded', make: (deps) => injectFaults(deps.faults, deps.quota) },
  // The partner's own limit: the whole sandbox's (1 MiB) unless a hosted sandbox set a lower one.
  { name: 'body text', scope: 'POS route', make: (deps) => bodyTextReader(deps.quota.quotas.bodyBytes) },
  {
    name: 'token',
    scope: 'POS route',
    make: (deps) => authenticate({ key: deps.partnerKey, posName: deps.partner.name, nonProdKey: deps.partner.nonProdKey, clock: deps.clock, jtis: deps.jtis }),
  },
  { name: 'location', scope: 'POS route', make: () => readLocation },
  { name: 'migration notes', scope: 'POS route', make: () => noteMigrationHeaders },
  { name: 'JSON body', scope: 'POS route', make: () => parseBody },
];

export interface Pipeline {
  front: RequestHandler;
  recorded: RequestHandler;
  /** A POS route's stages and its handler, after `front` and `recorded`. */
  posRoute(family: EnvelopeFamily, handler: RequestHandler): RequestHandler;
  /** All of a POS route's stages, `front` and `recorded` included: what a lane runs. */
  lane(family: EnvelopeFamily, handler: RequestHandler): RequestHandler;
  onError: ErrorRequestHandler;
}

export function buildPipeline(deps: AppDeps, routes: ReadonlyArray<Route<AppDeps>>): Pipeline {
  const made = (scope: Scope) => STAGES.filter((stage) => stage.scope === scope).map((stage) => stage.make(deps, routes));
  const [every, recorded, route] = [made('every request'), made('recorded'), made('POS route')];
  const start = (family: EnvelopeFamily): RequestHandler => (_req, res, next) => {
    res.locals.family = family;
    res.locals.findings = [];
    next();
  };
  return {
    front: series(...every),
    recorded: series(...recorded),
    posRoute: (family, handler) => series(start(family), ...route, handler),
    lane: (family, handler) => series(...every, ...recorded, start(family), ...route, handler),
    onError: errorHandler(deps.logger),
  };
}

/** Express's own entry, which the app calls with each request (`app(req, res)`), and the router after it. */
type AppEntry = (this: Express, req: Request, res: Response, callback?: NextFunction) => void;

/** A POS call spelled as the docs spell it takes its lane before Express's router: the same stages, with what Express would set first. */
export function takeLanesFirst(app: Express, lanes: ReadonlyMap<string, RequestHandler>, onError: ErrorRequestHandler): void {
  const entry = app as unknown as { handle: AppEntry; request: Request; response: Response };
  const routed = entry.handle;
  entry.handle = function handle(req, res, callback) {
    const query = req.url.indexOf('?');
    // A call handed on by another router (a callback) keeps that router's bookkeeping: only a server's own call takes a lane.
    const lane = callback === undefined ? lanes.get(`${req.method} ${query === -1 ? req.url : req.url.slice(0, query)}`) : undefined;
    if (lane === undefined) return routed.call(this, req, res, callback);
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, entry.request);
    Object.setPrototypeOf(res, entry.response);
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    // A handler answers every call; one that went on would be a bug, answered as the routes' last one answers it.
    lane(req, res, (error?: unknown) => onError(error ?? new Error(`${req.method} ${req.path} went past its handler`), req, res, () => undefined));
  };
}
