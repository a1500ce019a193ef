/** The front of a hosted sandbox: each request goes whole to its partner's own sandbox; what belongs to no partner is answered here in the same envelopes. */
import type { ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import { ApiError, envelopeFamilyFor, type ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { legacyRouter, LEGACY_MOUNT } from '../migration/migration-routes.js';
import { notFound, errorHandler } from '../http/error-handler.js';
import { CONTROL_MOUNT } from '../control/control-api.js';
import { anyMethod, posPaths, type OperatorView } from '../http/route.js';
import { ROUTES, type AppDeps } from '../routes.js';
import { requireHostHeader } from '../http/http-parser-errors.js';
import { requestId, requestLog } from '../http/request-log.js';
import { series } from '../http/series.js';
import { attributeRequest, PartnerBook } from './attribute-request.js';
import type { InstanceMetrics } from './instance-metrics.js';

export interface FrontPartner {
  name: string;
  adminToken: string;
  /** Its non-prod key: a POS call is the partner's only when signed with it. */
  nonProdKey: string;
  app: RequestListener;
  /** What the operator's list shows of it. */
  listing: () => Record<string, unknown>;
  /** What the operator's health shows of it. */
  health: () => Promise<Record<string, unknown>>;
}

export interface HostedFront {
  /** The request listener of the whole hosted sandbox. */
  listener: RequestListener;
  /** The app answering what belongs to no partner (exposed for tests). */
  nobody: Express;
}

interface Refusal {
  code: ErrorCode;
  messages: string[];
  /** What the answer leaves out, for the operator's log. */
  detail?: string;
}

interface FrontOptions {
  partners: FrontPartner[];
  operatorToken: string | undefined;
  /** Refusals of POS calls say whether the iss is a partner here (the partners file's tellUnknownPartners). */
  tellUnknownPartners?: boolean;
  logger: Logger;
  clock: () => number;
  version: string;
  instanceId: string;
  /** This instance's metrics: every request is counted there, and GET /metrics shows them to the operator. */
  metrics: InstanceMetrics;
  /** The keys the partners' reports are signed with, published at /.well-known/jwks.json. */
  reportKeys: ReportKeys;
}

export function hostedFront(options: FrontOptions): HostedFront {
  const book = new PartnerBook(options.partners, options.operatorToken, { tellUnknownPartners: options.tellUnknownPartners === true });
  const byName = new Map(options.partners.map((partner) => [partner.name, partner]));
  const nobody = nobodyApp(options);
  const anyPartner = options.partners[0]!.app;
  const listener: RequestListener = (req, res) => {
    const attribution = attributeRequest({ method: req.method ?? 'GET', path: pathOf(req.url), headers: req.headers }, book);
    options.metrics.track(req, res, attribution.to);
    switch (attribution.to) {
      case 'partner': {
        // The operator acts with the partner's own admin token: the partner's sandbox then guards its control API as always.
        if (attribution.authorization !== undefined) req.headers.authorization = attribution.authorization;
        return byName.get(attribution.name)!.app(req, res);
      }
      case 'any':
        return anyPartner(req, res);
      case 'operator':
      case 'public':
        return nobody(req, res);
      case 'nobody':
        (req as IncomingMessage & { refusal?: Refusal }).refusal = { code: attribution.code, messages: attribution.messages, ...(attribution.detail === undefined ? {} : { detail: attribution.detail }) };
        return nobody(req, res);
    }
  };
  return { listener, nobody };
}

function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function nobodyApp(options: FrontOptions): Express {
  const app = express();
  const view: OperatorView = { partners: options.partners, version: options.version, instanceId: options.instanceId, startedAt: options.clock(), clock: options.clock, metrics: options.metrics };
  app.disable('x-powered-by');
  app.set('etag', false);
  // No partner's key can appear in these lines: a random one stands in for the redaction of query credentials.
  app.use(series(requestId(randomUUID), requireHostHeader, requestLog(options.logger, options.clock, randomBytes(24).toString('hex'))));
  /** The refusal attribution gave, as the answer; what the answer leaves out goes to the operator's log. */
  const refuse = (refusal: Refusal): never => {
    if (refusal.detail !== undefined) options.logger.info({ refused: refusal.detail }, 'a POS call refused before any partner');
    throw new ApiError(refusal.code, refusal.messages);
  };
  const refused: RequestHandler = (req, _res, next) => {
    const refusal = (req as express.Request & { refusal?: Refusal }).refusal;
    if (refusal) refuse(refusal);
    next();
  };
  app.use(CONTROL_MOUNT, (_req, res, next) => {
    res.locals.family = 'order';
    next();
  }, refused);
  for (const route of ROUTES) {
    if (route.api === 'public') app.all(route.path, anyMethod(route, route.handle({ reportKeys: options.reportKeys } as AppDeps)));
    else if (route.api === 'operator') app.all(route.path, anyMethod(route, [refused, ...[route.handle(view)].flat()]));
    else if (route.api === 'control' && route.operator !== undefined) app.get(route.path, route.operator(view));
  }
  app.use(LEGACY_MOUNT, legacyRouter(ROUTES));
  // A POS call that reached no partner gets the refusal attribution gave, on the POS paths only, so another path is 404 or 405 as a partner's sandbox would answer.
  for (const route of ROUTES) {
    if (route.api !== 'pos') continue;
    app[route.method === 'PUT' ? 'put' : 'post'](posPaths(route.path), (req, res) => {
      res.locals.family = route.family;
      refuse((req as express.Request & { refusal?: Refusal }).refusal ?? { code: 'UNAUTHORIZED', messages: ['the request names no partner of this sandbox'] });
    });
  }
  app.use((req, res, next) => {
    res.locals.family = envelopeFamilyFor(req.path);
    next();
  });
  app.use(notFound(ROUTES));
  app.use(errorHandler(options.logger));
  return app;
}
