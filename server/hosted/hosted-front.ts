/**
 * The front of a hosted sandbox: each request goes whole to the sandbox of the partner it belongs to
 * (attribute-request.ts), each partner's a full sandbox of its own (store, journal, events, fault rules, reports).
 * What belongs to no partner is answered here, in the same envelopes: a POS call that names no known partner, a
 * control call without a partner's token, and the operator's reads across partners.
 */
import { mountJwks } from '../checklist/jwks-route.js';
import type { ReportKeys } from '../../certification-checklist/report/signing-keys.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { ApiError, envelopeFamilyFor, type ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import { legacyRouter } from '../migration/legacy-routes.js';
import { notFound } from '../http/not-found.js';
import { LEGACY_MOUNT, POS_MOUNTS, POS_ROUTES } from '../pos-routes.js';
import { errorHandler } from '../http/error-handler.js';
import { requireHostHeader } from '../http/host-header.js';
import { requestId } from '../http/request-id.js';
import { requestLog } from '../http/request-log.js';
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
}

interface FrontOptions {
  partners: FrontPartner[];
  operatorToken: string | undefined;
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
  const book = new PartnerBook(options.partners, options.operatorToken);
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
        (req as IncomingMessage & { refusal?: Refusal }).refusal = { code: attribution.code, messages: attribution.messages };
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
  const startedAt = options.clock();
  app.disable('x-powered-by');
  app.set('etag', false);
  // No partner's key can appear in these lines: a random one stands in for the redaction of query credentials.
  app.use(series(requestId(randomUUID), requireHostHeader, requestLog(options.logger, options.clock, randomBytes(24).toString('hex'))));
  const refusalOf = (req: express.Request) => (req as express.Request & { refusal?: Refusal }).refusal;
  app.use('/_sandbox', (req, res, next) => {
    res.locals.family = 'order';
    const refusal = refusalOf(req);
    if (refusal) throw new ApiError(refusal.code, refusal.messages);
    next();
  });
  mountJwks(app, options.reportKeys);
  app.all('/metrics', async (req, res) => {
    res.locals.family = 'order';
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /metrics; use GET`, { headers: { Allow: 'GET' } });
    const refusal = refusalOf(req);
    if (refusal) throw new ApiError(refusal.code, refusal.messages);
    const { body, contentType } = await options.metrics.render();
    res.set({ 'content-type': contentType, 'cache-control': 'no-store' }).send(body);
  });
  app.get('/_sandbox/partners', (_req, res) => {
    res.json(options.partners.map((partner) => partner.listing()));
  });
  app.get('/_sandbox/health', async (_req, res) => {
    const partners: Array<Record<string, unknown>> = await Promise.all(options.partners.map(async (partner) => ({ name: partner.name, ...(await partner.health()) })));
    const ok = partners.every((partner) => partner.status === 'ok');
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'unavailable',
      version: options.version,
      startedAt: new Date(startedAt).toISOString(),
      uptimeSeconds: Math.floor((options.clock() - startedAt) / 1000),
      instanceId: options.instanceId,
      partners,
    });
  });
  app.use(LEGACY_MOUNT, legacyRouter());
  // A POS call that reached no partner: the refusal attribute-request.ts gave, at the routes of the POS API only,
  // so that another path or method is answered 404 or 405 as a partner's sandbox would.
  for (const route of POS_ROUTES) {
    const paths = POS_MOUNTS.map((mount) => `${mount === '/' ? '' : mount}${route.path}`);
    const handler: express.RequestHandler = (req, res) => {
      res.locals.family = route.family;
      const refusal = refusalOf(req) ?? { code: 'UNAUTHORIZED' as const, messages: ['the request names no partner of this sandbox'] };
      throw new ApiError(refusal.code, refusal.messages);
    };
    if (route.method === 'POST') app.post(paths, handler);
    else app.put(paths, handler);
  }
  app.use((req, res, next) => {
    res.locals.family = envelopeFamilyFor(req.path);
    next();
  });
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}
