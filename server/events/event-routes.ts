/** GET /_sandbox/events: server-sent events of orders, refunds, menus, journal entries and runs; a slow reader is dropped past 1 MiB. */
import { ApiError } from '../errors.js';
import type { ControlRoute } from '../http/route.js';
import type { QuotaBook } from '../hosted/quotas.js';
import { checkQuery } from '../control/control-query.js';
import { controlResponses } from '../openapi/openapi-parts.js';
import { EVENT_TYPES, formatServerSentEvent, type SandboxEvent, type SandboxEvents, type SandboxEventType } from './sandbox-events.js';
import { StreamBacklog } from './stream-backlog.js';

/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** How long a dropped client has to read its last event before its socket is destroyed. */
const DROP_GRACE_MS = 5_000;

export const eventsRoute: ControlRoute<{ events: SandboxEvents; quota: QuotaBook }> = {
  method: 'GET',
  path: '/_sandbox/events',
  api: 'control',
  handle: (deps) => (req, res) => {
    const { types } = checkQuery(req.query, ['types']);
    const wanted = new Set<string>(types === undefined ? EVENT_TYPES : types.split(',').map((type) => type.trim()));
    const unknown = [...wanted].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) throw new ApiError('INVALID_REQUEST', `unknown event type ${unknown.map((t) => `'${t}'`).join(', ')}; types are ${EVENT_TYPES.join(', ')}`);
    const lastId = Number(req.get('last-event-id') ?? NaN);
    deps.quota.checkEventStream(deps.events.streams.stats().clients);

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    // Writes that ignore res.write's answer grew the process by 80 MB per 30,000 refunds for a paused client.
    const backlog = new StreamBacklog((chunk) => res.write(chunk));
    res.on('drain', () => backlog.drain());
    deps.events.streams.add(backlog);
    const heartbeat = setInterval(() => deliver(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let open = true;
    const stop = (dropped: boolean) => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      deps.events.off('event', send);
      deps.events.streams.remove(backlog, dropped);
    };
    const deliver = (chunk: string) => {
      if (open && backlog.send(chunk) === 'overflow') drop();
    };
    const send = (event: SandboxEvent) => {
      if (wanted.has(event.type as SandboxEventType)) deliver(formatServerSentEvent(event));
    };
    const drop = () => {
      stop(true);
      const socket = res.socket;
      const reason = `this client read too slowly: more than ${backlog.limitBytes} bytes of events waited for it, so the sandbox stopped sending; reconnect with Last-Event-ID to catch up (the last ${deps.events.keep} events are held)`;
      res.end(`event: dropped\ndata: ${JSON.stringify({ type: 'dropped', reason })}\n\n`);
      // The client reconnects on a new connection anyway; one that never reads again is cut off after the grace.
      res.once('finish', () => socket?.end());
      const cutOff = setTimeout(() => socket?.destroy(), DROP_GRACE_MS);
      cutOff.unref();
      socket?.once('close', () => clearTimeout(cutOff));
    };

    deliver(`: pos-sandbox events (${[...wanted].join(', ')})\nretry: 2000\n\n`);
    if (Number.isInteger(lastId)) for (const missed of deps.events.since(lastId)) send(missed);
    if (!open) return;
    deps.events.on('event', send);
    // The sandbox handed over to another instance: the stream ends, and the client's reconnection reaches the new leader.
    const closed = () => {
      stop(false);
      res.end();
    };
    deps.events.once('closed', closed);
    res.on('close', () => {
      deps.events.off('closed', closed);
      stop(false);
    });
  },
  doc: {
    operationId: 'events',
    summary: 'Server-sent events: orders, refunds, menu changes, journal entries',
    description:
      "The sandbox's own event stream for tools (§6: events are not shown; nothing is pushed to the POS). " +
      'Each event: `id`, `event` (its type) and `data` {id, type, time, data}. Last-Event-ID replays the events held since (the last 500). ' +
      'A client that reads slower than events come has at most 1 MiB of them kept for it; past that the stream ends with an `event: dropped` (no id; data {type, reason}) and the connection closes: reconnect with Last-Event-ID to catch up.',
    parameters: [{ name: 'types', in: 'query', schema: { type: 'string' }, description: `Comma-separated: ${EVENT_TYPES.join(', ')}` }],
    responses: controlResponses(
      { '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      { invalid: 'an unknown query parameter or event type' },
    ),
  },
};
