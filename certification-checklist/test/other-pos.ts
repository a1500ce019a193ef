/**
 * A second POS for the checklist tests, written apart from the reference POS: plain node:http, its own token
 * minting, its own ExternalIds, its menu read from the sandbox. Correct by default for the order, status, refund
 * and menu paths; each test bends one behaviour, the way a partner's POS might get it wrong in a way we did not
 * switch on in the reference POS. It checks the service's tokens only when a test asks it to (`checkToken`).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import jwt from 'jsonwebtoken';
import { PARTNER } from '../../server/test/helpers.js';
import { listen } from '../../server/test/live.js';

export interface OtherPosOrder {
  OrderId: string;
  LocationId: string;
  ExternalId: string;
}

/** The behaviours a test may bend; every one has a correct default. */
export interface Quirks {
  /** The ExternalId given to the n-th new order. */
  externalId?: (order: { OrderId: string }, n: number) => string;
  /** The claims of a token for a call of `kind`, from the correct ones. */
  claims?: (claims: Record<string, unknown>, kind: 'status' | 'refund' | 'menu') => Record<string, unknown>;
  /** The status call's body, from the correct one. */
  statusBody?: (body: Record<string, unknown>, order: OtherPosOrder) => unknown;
  /** Headers of the status call, from the correct ones. */
  statusHeaders?: (headers: Record<string, string>) => Record<string, string>;
  /** When the status call goes: after the reply (default), before it, before it with the reply waiting for its answer, or twice after it. */
  statusTiming?: 'after-reply' | 'before-reply' | 'awaited-before-reply' | 'twice';
  /** Put Status in the reply as well as sending the status call. */
  statusInReply?: boolean;
  /** The refund's body, from the correct one and the order it refunds (when the POS knows it). */
  refundBody?: (body: Record<string, unknown>, order: OtherPosOrder | undefined) => unknown;
  /** Send a refund or menu update that met a 5xx again after growing waits (default), or never (the refund is lost). */
  retryAfter5xx?: boolean;
  /** Send the whole menu of this location in an update (changed items changed), not only what changed. */
  wholeMenu?: (locationId: string) => boolean;
  /** One price entry of a menu item as sent, from the correct form A one. */
  priceEntry?: (entry: { ServiceType: string; Price: unknown }) => unknown;
  /** A menu price as sent, from the correct minor units, for a location. */
  price?: (minorUnits: number, locationId: string) => unknown;
  /** The x-service-locationid a menu update is sent with, from the correct one. */
  menuLocation?: (locationId: string) => string;
  /** How many times each refund is sent (a double submit, say). */
  refundSends?: number;
  /** How long the reply to an order is held (a kiosk ticket printing first, say). */
  ackDelayMs?: (order: { Channel?: unknown }) => number;
  /** Send each status call once more this long after the first (it gets 409), as a POS unsure it landed might. */
  statusAgainAfterMs?: number;
  /** Check the service's token: before booking the order (correct), or after booking it and scheduling its status. */
  checkToken?: 'before-booking' | 'after-booking';
  /** The POS name and key it signs its calls with and checks the service's tokens with (default: the sandbox's partner's). */
  identity?: { name?: string; key?: string; checkKey?: string };
  /** Its waits before each retry of a refund or menu update that met a 5xx (default 1.2 s, then 2.5 s). */
  retryWaitsMs?: number[];
  /** Answer an order it is told to reject with this error status instead of taking it and sending REJECTED. */
  rejectWithStatus?: number;
}

const SERVICE_AUDIENCE = 'io.service.pos.brokers.openapi';
/** Its own backoff after a 5xx, not the reference POS's: growing, the first over a second. */
const RETRY_WAITS_MS = [1200, 2500];

/** Starts the POS; its order endpoint is `${url}/order` and its driver is `url`. */
export async function otherPos(sandboxUrl: string, quirks: Quirks = {}): Promise<{ url: string; orders: Map<string, OtherPosOrder> }> {
  const orders = new Map<string, OtherPosOrder>();
  const decisions = new Map<string, { decision: string; reason?: string }>();
  let made = 0;

  const call = async (method: string, path: string, locationId: string, body: unknown, kind: 'status' | 'refund' | 'menu', headers: (h: Record<string, string>) => Record<string, string> = (h) => h) => {
    const now = Math.floor(Date.now() / 1000);
    const correct = { sub: locationId, jti: randomUUID(), nbf: now, exp: now + 120, iss: quirks.identity?.name ?? PARTNER.name, aud: SERVICE_AUDIENCE };
    const token = jwt.sign(quirks.claims?.(correct, kind) ?? correct, quirks.identity?.key ?? PARTNER.nonProdKey, { algorithm: 'HS256', noTimestamp: true });
    const base = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-service-locationid': locationId, 'x-api-key': PARTNER.apiKey ?? 'k', 'x-api-version': '2' };
    const response = await fetch(`${sandboxUrl}${path}`, { method, headers: headers(base), body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  };
  // A refund or menu update is kept until the service takes it: an outage must not lose the merchant's refund.
  const deliver = async (method: string, path: string, locationId: string, body: unknown, kind: 'refund' | 'menu') => {
    let answer = await call(method, path, locationId, body, kind);
    for (const wait of quirks.retryAfter5xx === false ? [] : (quirks.retryWaitsMs ?? RETRY_WAITS_MS)) {
      if (answer.status < 500) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
      answer = await call(method, path, locationId, body, kind);
    }
    return answer;
  };

  // A status call may outlive its test (one sent again later): a sandbox already closed is no error of the POS.
  const sendStatus = (order: OtherPosOrder) => {
    const decided = decisions.get(order.OrderId) ?? { decision: 'ACCEPTED' };
    const body = { ExternalId: order.ExternalId, Status: decided.decision, ...(decided.reason ? { Reason: decided.reason } : {}) };
    return call('POST', '/v2/order/status', order.LocationId, quirks.statusBody?.(body, order) ?? body, 'status', quirks.statusHeaders).catch(() => undefined);
  };

  const routes: Record<string, (body: Record<string, unknown>, res: ServerResponse, req: IncomingMessage) => Promise<void>> = {
    'POST /order': async (body, res, req) => {
      const tokenOk = () => {
        try {
          jwt.verify(String(req.headers.authorization).replace(/^Bearer /, ''), quirks.identity?.checkKey ?? quirks.identity?.key ?? PARTNER.nonProdKey, { algorithms: ['HS256'], audience: quirks.identity?.name ?? PARTNER.name, issuer: 'io.service.pos.brokers.openapi' });
          return true;
        } catch {
          return false;
        }
      };
      if (quirks.checkToken === 'before-booking' && !tokenOk()) return json(res, 401, { error: 'bad token' });
      if (quirks.rejectWithStatus !== undefined && decisions.get(String(body.OrderId))?.decision === 'REJECTED') return json(res, quirks.rejectWithStatus, { error: 'order declined' });
      const known = orders.get(String(body.OrderId));
      const order = known ?? { OrderId: String(body.OrderId), LocationId: String(body.LocationId), ExternalId: quirks.externalId?.({ OrderId: String(body.OrderId) }, ++made) ?? `OP-${++made}` };
      orders.set(order.OrderId, order);
      if (quirks.checkToken === 'after-booking' && !tokenOk()) {
        // Booked and handed to the kitchen before the token was looked at: its status goes out anyway.
        setImmediate(() => void sendStatus(order));
        return json(res, 401, { error: 'bad token' });
      }
      const timing = quirks.statusTiming ?? 'after-reply';
      if (timing === 'before-reply') void sendStatus(order);
      // The reply waits for the status call, which waits for the reply: the sandbox gives up on the call after 2 s.
      if (timing === 'awaited-before-reply') await sendStatus(order);
      const hold = quirks.ackDelayMs?.(body) ?? 0;
      if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
      const decided = decisions.get(order.OrderId)?.decision ?? 'ACCEPTED';
      json(res, 200, { ExternalId: order.ExternalId, ...(quirks.statusInReply ? { Status: decided } : {}) });
      if (timing === 'after-reply' || timing === 'twice') {
        await sendStatus(order);
        if (timing === 'twice') await sendStatus(order);
      }
      if (quirks.statusAgainAfterMs !== undefined) setTimeout(() => void sendStatus(order), quirks.statusAgainAfterMs);
    },
    'GET /health': async (_body, res) => json(res, 200, { status: 'ok' }),
    'POST /decide': async (body, res) => {
      decisions.set(String(body.orderId), { decision: String(body.decision), ...(typeof body.reason === 'string' ? { reason: body.reason } : {}) });
      json(res, 200, { ok: true });
    },
    'POST /refund': async (body, res) => {
      const correct = { ExternalId: body.externalId };
      const order = [...orders.values()].find((candidate) => candidate.ExternalId === body.externalId && candidate.LocationId === body.locationId);
      let answer;
      for (let sent = 0; sent < (quirks.refundSends ?? 1); sent++) answer = await deliver('POST', '/v2/order/refund', String(body.locationId), quirks.refundBody?.(correct, order) ?? correct, 'refund');
      json(res, 200, answer);
    },
    'POST /menu': async (body, res) => {
      const locationId = String(body.locationId);
      const menu = (await (await fetch(`${sandboxUrl}/_sandbox/locations/${locationId}/menu`)).json()) as { Items: Array<{ Id: string; Name: string; Type: string; Prices: Array<{ ServiceType: string; Price: number }> }> };
      const changes = body.changes as Array<{ itemId: string; price?: number }>;
      const unknown = changes.find((change) => !menu.Items.some((item) => item.Id === change.itemId));
      if (unknown) return json(res, 400, { error: `no item ${unknown.itemId} on the menu of ${locationId}` });
      const sent = quirks.wholeMenu?.(locationId) ? menu.Items.map((item) => ({ itemId: item.Id, ...changes.find((change) => change.itemId === item.Id) })) : changes;
      const Items = sent.map((change) => {
        const item = menu.Items.find((candidate) => candidate.Id === change.itemId)!;
        const price = change.price ?? item.Prices[0]!.Price;
        const entry = { ServiceType: 'Takeout', Price: quirks.price?.(price, locationId) ?? price };
        return { Id: item.Id, Name: item.Name, Type: item.Type, Prices: [quirks.priceEntry?.(entry) ?? entry] };
      });
      const sentFor = quirks.menuLocation?.(locationId) ?? locationId;
      json(res, 200, await deliver('PUT', '/v2/menu', sentFor, { LocationId: locationId, Items }, 'menu'));
    },
  };

  const url = await listen((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const route = routes[`${req.method} ${new URL(req.url ?? '/', 'http://pos').pathname}`];
      if (!route) return json(res, 404, { error: 'no such route' });
      route(text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), res, req).catch((error: Error) => json(res, 500, { error: error.message }));
    });
  });
  return { url, orders };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
