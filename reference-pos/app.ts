/** The reference POS: the order endpoint a correct POS exposes, and the driver contract the checklist drives it by; in memory, `bugs` break it on purpose. */
import { orderShapeFault } from './order-shape-bugs.js';
import { failureCause } from '../server/cli/control-client.js';
import express, { type ErrorRequestHandler, type Express, type Response } from 'express';
import type { Location, Menu } from '../server/fixtures/fixture-schemas.js';
import type { Bug } from './bugs.js';
import { menuPayload, type MenuChangeRequest } from './menu-payload.js';
import { SandboxClient, type PosIdentity } from './sandbox-client.js';
import { checkServiceToken, secretKey } from './service-token-check.js';
import { REFERENCE_POS_PRODUCT } from '../certification-checklist/driver-contract.js';

/** The whole-small-menus bug sends a menu of at most this many items whole: the Hub brands' and the Kiosk's. */
const SMALL_MENU_ITEMS = 3;

export interface ReferencePosOptions {
  identity: PosIdentity;
  /** The service's base URL, for status calls (the driver names its own per call). */
  sandboxUrl: string;
  menus: Record<string, Menu>;
  /** The merchant locations it serves; the hub-first-brand bug needs to know which are brands of one Hub. */
  locations?: readonly Location[];
  bugs: ReadonlySet<Bug>;
  /** Answer with Status in the order reply instead of a POST /order/status afterwards. */
  statusInReply?: boolean;
  slowAckMs?: number;
  /** --bug slow-big-order: how long an order of many items waits for its reply (default 4000 ms). */
  bigOrderMs?: number;
  /** A second reference POS on one sandbox needs its own prefix, or both number orders REF-00001. */
  externalIdPrefix?: string;
  clock?: () => number;
  log?: (line: string) => void;
}

export interface PosOrder {
  OrderId: string;
  LocationId: string;
  ExternalId: string;
  /** The RequestId of the last delivery: a new one is a resend, the same one a duplicate. */
  RequestId: string;
  deliveries: number;
  decision: 'ACCEPTED' | 'REJECTED';
  reason?: string;
  statusCall?: { status: number; body?: unknown };
}

interface Decision {
  decision: 'ACCEPTED' | 'REJECTED';
  reason?: string;
}

export function createReferencePos(options: ReferencePosOptions): Express & { orders: Map<string, PosOrder> } {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => undefined);
  const bugs = options.bugs;
  const client = new SandboxClient(options.identity, clock, bugs);
  const key = secretKey(options.identity.key);
  const orders = new Map<string, PosOrder>();
  const decisions = new Map<string, Decision>();
  const menus = structuredClone(options.menus);
  let sequence = 0;
  let firstLocation: string | undefined;
  /** The location a call uses: the order's own, unless the wrong-location bug pins the first one it saw, or hub-first-brand its Hub's first brand. */
  const locationFor = (own: string) => {
    firstLocation ??= own;
    if (bugs.has('wrong-location')) return firstLocation;
    const hub = options.locations?.find((location) => location.id === own)?.hub?.id;
    if (bugs.has('hub-first-brand') && hub) return options.locations!.find((location) => location.hub?.id === hub)!.id;
    return own;
  };

  const app = express() as Express & { orders: Map<string, PosOrder> };
  app.orders = orders;
  app.use(express.json({ limit: '1mb' }));

  app.post('/order', async (req, res) => {
    const locationId = req.get('x-service-locationid') ?? undefined;
    const check = checkServiceToken(req.get('authorization'), {
      key,
      posName: options.identity.posName,
      locationId,
      nowSeconds: Math.floor(clock() / 1000),
      skipSignature: bugs.has('accept-bad-signature'),
      ignoreExpiry: bugs.has('accept-expired-token'),
      ignoreAudience: bugs.has('accept-wrong-audience'),
    });
    if (!check.ok) {
      log(`order refused: ${check.reason}`);
      return fail(res, 401, 'UNAUTHORIZED', check.reason);
    }
    const order = req.body as { OrderId?: unknown; LocationId?: unknown; RequestId?: unknown; Channel?: unknown };
    if (typeof order?.OrderId !== 'string' || typeof order.LocationId !== 'string' || order.LocationId !== locationId) {
      return fail(res, 400, 'INVALID_ORDER', 'OrderId and LocationId are required, and LocationId must be the x-service-locationid');
    }
    if (bugs.has('refuse-kiosk') && order.Channel === 'kiosk') return fail(res, 400, 'INVALID_ORDER', 'unknown channel kiosk');
    const shape = orderShapeFault(req.body as Parameters<typeof orderShapeFault>[0], bugs, options.bigOrderMs ?? 4000);
    if (shape !== undefined && 'status' in shape) {
      log(`order ${order.OrderId} failed: ${shape.reason}`);
      return fail(res, 500, 'INTERNAL_ERROR', shape.reason);
    }
    const known = orders.get(order.OrderId);
    const requestId = typeof order.RequestId === 'string' ? order.RequestId : '';
    const duplicate = known !== undefined && known.RequestId === requestId;
    if (bugs.has('refuse-resend') && known !== undefined && !duplicate) return fail(res, 409, 'DUPLICATE_ORDER', `order ${order.OrderId} was received before`);
    const decided = decisions.get(order.OrderId) ?? { decision: 'ACCEPTED' };
    // Idempotent by OrderId: a retry, a duplicate or a resend of one order keeps its ExternalId.
    const keeps = known !== undefined && !bugs.has('no-idempotency') && !(bugs.has('new-external-id-on-resend') && !duplicate);
    const externalId = keeps ? known.ExternalId : `${options.externalIdPrefix ?? 'REF-'}${String(++sequence).padStart(5, '0')}`;
    const kept: PosOrder = {
      OrderId: order.OrderId,
      LocationId: order.LocationId,
      ExternalId: externalId,
      RequestId: requestId,
      deliveries: (known?.deliveries ?? 0) + 1,
      decision: decided.decision,
      ...(decided.reason ? { reason: decided.reason } : {}),
      ...(duplicate && known.statusCall ? { statusCall: known.statusCall } : {}),
    };
    orders.set(order.OrderId, kept);
    locationFor(order.LocationId);
    log(`order ${order.OrderId} ${duplicate ? 'again (duplicate)' : known ? 'resent' : 'received'}: ExternalId ${externalId}, ${decided.decision}`);

    if (bugs.has('slow-ack')) await new Promise((resolve) => setTimeout(resolve, options.slowAckMs ?? 12_000));
    if (shape !== undefined && 'delayMs' in shape) await new Promise((resolve) => setTimeout(resolve, shape.delayMs));
    if (bugs.has('no-external-id')) return res.status(200).json({ Received: true });
    if (options.statusInReply && !bugs.has('no-status-call')) {
      return res.status(200).json({ ExternalId: externalId, Status: decided.decision, ...(decided.reason ? { Reason: decided.reason } : {}) });
    }
    res.status(200).json({ ExternalId: externalId });
    if (bugs.has('no-status-call')) return;
    // A duplicate whose status landed is answered, not decided again; one whose status was refused is a chance to send it again.
    if (duplicate && kept.statusCall?.status === 200) return;
    res.on('finish', () => void sendStatus(kept));
  });

  async function sendStatus(order: PosOrder): Promise<void> {
    const body = { ExternalId: order.ExternalId, Status: order.decision, ...(order.reason ? { Reason: order.reason } : {}) };
    try {
      const answer = await client.call(options.sandboxUrl, 'POST', '/v2/order/status', locationFor(order.LocationId), body);
      order.statusCall = { status: answer.status, ...(answer.body === undefined ? {} : { body: answer.body }) };
      log(`status ${order.decision} for ${order.OrderId}: sandbox answered ${answer.status}`);
    } catch (error) {
      // fetch's own message is "fetch failed"; the cause says what happened (a refused connection, a reset).
      const cause = failureCause(error);
      order.statusCall = { status: 0, body: cause };
      log(`status for ${order.OrderId} not sent to ${options.sandboxUrl}/v2/order/status: ${cause}`);
    }
  }

  // The driver contract: each reply is 2xx once the POS has done it, with what the sandbox answered.
  app.get('/health', (_req, res) => {
    // `product` tells the checklist this is the bundled reference POS: its runs are demos, never certifications.
    res.json({ status: 'ok', product: REFERENCE_POS_PRODUCT, posName: options.identity.posName, bugs: [...bugs], orders: orders.size });
  });

  app.get('/orders', (_req, res) => {
    res.json([...orders.values()]);
  });

  app.post('/decide', (req, res) => {
    const { orderId, decision, reason } = (req.body ?? {}) as { orderId?: unknown; decision?: unknown; reason?: unknown };
    if (typeof orderId !== 'string' || (decision !== 'ACCEPTED' && decision !== 'REJECTED') || (reason !== undefined && typeof reason !== 'string')) {
      return fail(res, 400, 'INVALID_REQUEST', 'body must be {"orderId": string, "decision": "ACCEPTED"|"REJECTED", "reason"?: string}');
    }
    decisions.set(orderId, { decision, ...(reason === undefined ? {} : { reason }) });
    res.json({ orderId, decision, appliesTo: orders.has(orderId) ? 'the next delivery of this order' : 'the order when it arrives' });
  });

  app.post('/refund', async (req, res) => {
    const { sandboxUrl, locationId, externalId } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof locationId !== 'string' || typeof externalId !== 'string') {
      return fail(res, 400, 'INVALID_REQUEST', 'body must be {"sandboxUrl"?, "locationId": string, "externalId": string}');
    }
    // The refund-by-order-id bug names the order by the service's id, which the service does not know it by.
    const named = bugs.has('refund-by-order-id') ? ([...orders.values()].find((o) => o.ExternalId === externalId)?.OrderId ?? externalId) : externalId;
    const answer = await client.call(baseOf(sandboxUrl), 'POST', '/v2/order/refund', locationFor(locationId), { ExternalId: named }, { omitLocationHeader: bugs.has('refund-no-location') });
    const asked = bugs.has('waits-for-refund-result') ? await client.askRefundResult(baseOf(sandboxUrl), locationFor(locationId), named) : undefined;
    res.json({ sent: true, sandbox: answer, ...(asked === undefined ? {} : { resultAsked: asked }) });
  });

  app.post('/menu', async (req, res) => {
    const { sandboxUrl, locationId, form, changes } = (req.body ?? {}) as Record<string, unknown>;
    const menu = typeof locationId === 'string' && Object.hasOwn(menus, locationId) ? menus[locationId] : undefined;
    if (!menu || (form !== 'A' && form !== 'B') || !Array.isArray(changes)) {
      return fail(res, 400, 'INVALID_REQUEST', `body must be {"sandboxUrl"?, "locationId": one of ${Object.keys(menus).join(', ')}, "form": "A"|"B", "changes": [...]}`);
    }
    const built = menuPayload(menu, form, changes as MenuChangeRequest[], {
      floatPrices: bugs.has('float-prices'),
      extraFields: bugs.has('menu-extra-fields'),
      skipReferenceCheck: bugs.has('no-reference-check'),
      serviceInFormA: bugs.has('service-in-form-a'),
      fullMenu: bugs.has('full-menu-updates') || (bugs.has('whole-small-menus') && menu.Items.length <= SMALL_MENU_ITEMS),
    });
    if (built.problems.length > 0) return fail(res, 400, 'INVALID_REQUEST', built.problems.join('; '));
    const answer = await client.call(baseOf(sandboxUrl), 'PUT', '/v2/menu', locationFor(locationId as string), built.payload);
    if (answer.status === 200) applyToOwnMenu(menu, changes as MenuChangeRequest[]);
    res.json({ sent: true, payload: built.payload, sandbox: answer });
  });

  const baseOf = (url: unknown) => (typeof url === 'string' && url !== '' ? url : options.sandboxUrl);
  const errors: ErrorRequestHandler = (error: Error & { status?: number }, _req, res, _next) => {
    // A body that is not JSON, or the sandbox unreachable from a driver call: said in the same envelope.
    fail(res, error.status ?? 502, error.status ? 'INVALID_REQUEST' : 'SANDBOX_UNREACHABLE', error.message);
  };
  app.use(errors);
  return app;
}

function applyToOwnMenu(menu: Menu, changes: MenuChangeRequest[]): void {
  for (const change of changes) {
    const item = menu.Items.find((candidate) => candidate.Id === change.itemId);
    if (!item) continue;
    if (change.name !== undefined) item.Name = change.name;
    const price = item.Prices.find((candidate) => candidate.ServiceType === (change.serviceType ?? 'Takeout'));
    if (price && change.price !== undefined) price.Price = change.price;
  }
}

function fail(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ errors: [{ code, message }] });
}
