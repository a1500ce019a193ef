/** GET /_sandbox/events: server-sent events of orders, refunds, menu changes and journal entries (?types= narrows them). */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { EVENT_TYPES, formatServerSentEvent, type SandboxEvent, type SandboxEventType } from '../events/sandbox-events.js';
import type { ControlDeps } from './control-router.js';
import { checkQuery } from './control-query.js';

/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export function eventRoutes(deps: ControlDeps): Router {
  const router = Router();
  router.get('/events', (req, res) => {
    const { types } = checkQuery(req.query, ['types']);
    const wanted = new Set<string>(types === undefined ? EVENT_TYPES : types.split(',').map((type) => type.trim()));
    const unknown = [...wanted].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) throw new ApiError('INVALID_REQUEST', `unknown event type ${unknown.map((t) => `'${t}'`).join(', ')}; types are ${EVENT_TYPES.join(', ')}`);
    const lastId = Number(req.get('last-event-id') ?? NaN);

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(`: pos-sandbox events (${[...wanted].join(', ')})\nretry: 2000\n\n`);
    const send = (event: SandboxEvent) => {
      if (wanted.has(event.type as SandboxEventType)) res.write(formatServerSentEvent(event));
    };
    if (Number.isInteger(lastId)) for (const missed of deps.events.since(lastId)) send(missed);
    deps.events.on('event', send);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      deps.events.off('event', send);
    });
  });
  return router;
}
