/** POST /order/status (§4.3), the orders the sandbox made and sends to the POS, and their OpenAPI parts. */
import type { Request } from 'express';
import { ApiError } from '../errors.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import { unknownFieldFindings, addFindings, enforceStrict, setFindingsHeader } from '../http/findings.js';
import { readJsonBody } from '../http/json-body.js';
import { requireOrderCall } from '../http/pos-call.js';
import type { ControlRoute, PosRoute } from '../http/route.js';
import { checkQuery, jsonBody, pageAfter, pageLimit, RECORD_PAGE, sendPage, unknownCursor } from '../control/control-query.js';
import { egressProblem, allowedOrigins, type EgressPolicy } from '../hosted/egress.js';
import type { QuotaBook } from '../hosted/quotas.js';
import { byId, controlOk, controlResponses, idParameter, json, ref, pagedOk, pageParameters, schemaComponents } from '../openapi/openapi-parts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { checkNewOrderBody } from './new-order.js';
import type { OrderDesk } from './order-desk.js';
import type { OrderRecord } from './order-rules.js';
import { orderSchema } from './order-schema.js';
import { ORDER_STATUSES, checkOrderStatusBody } from './order-rules.js';

export const orderStatusRoute: PosRoute<{ strict: boolean; orders: OrderDesk }> = {
  method: 'POST',
  path: '/order/status',
  api: 'pos',
  family: 'order',
  handle: ({ strict, orders }) =>
    async (_req, res) => {
      const { locationId, request, unknownFields } = requireOrderCall(res, checkOrderStatusBody);
      // Before the order is looked up: a status call refused for its ExternalId still shows its v1 habits.
      addFindings(res, unknownFieldFindings(unknownFields, 'an order status request', res.locals.body?.ok ? res.locals.body.value : undefined));
      const externalId = request.ExternalId;
      const { order, elsewhere, delivering, ambiguous } = await orders.lookupForCall(externalId, locationId);
      if (ambiguous) {
        throw new ApiError(
          'INVALID_STATE',
          `ExternalId '${externalId}' names ${ambiguous.length} orders at location '${locationId}' (${ambiguous.map((o) => `${o.OrderId}, ${o.Status}`).join('; ')}), and ${ambiguous.some((o) => o.Status === 'AWAITING_STATUS') ? 'more than one awaits a status' : 'none awaits a status'}: the call cannot name one. Give each order an ExternalId of its own (one given again after a POS restart matches an earlier order), or start the sandbox afresh (pos-sandbox reset)`,
        );
      }
      if (!order) {
        // Every call about an order uses its own location; for a Hub the finding names the brand mix-up.
        addFindings(res, orders.brandFindings(externalId, locationId, 'POST /order/status'));
        res.locals.orderId = elsewhere?.OrderId;
        throw new ApiError(
          'INVALID_PAYLOAD',
          elsewhere
            ? `ExternalId '${externalId}' is order ${elsewhere.OrderId} of location '${elsewhere.LocationId}', not of '${locationId}'; send the status with x-service-locationid: ${elsewhere.LocationId}`
            : `no order with ExternalId '${externalId}' at location '${locationId}'; ExternalId is the id the POS returned when the order was delivered` +
                (delivering
                  ? `. The sandbox has not read the reply to ${delivering.map((id) => `order ${id}`).join(', ')} yet (still being delivered), so it cannot know that ExternalId: send the status again once the delivery settles`
                  : ''),
        );
      }
      res.locals.orderId = order.OrderId;
      enforceStrict(res, strict);
      const moved = await orders.applyPosStatus(order, request, res.locals.journalId ?? '');
      setFindingsHeader(res);
      res.set('x-sandbox-order-id', moved.OrderId);
      res.set('x-sandbox-order-status', moved.Status);
      res.status(200).end();
    },
  doc: {
    name: 'orderStatus',
    summary: 'Accept or reject an order (§3, §4.3)',
    description:
      "The POS accepts or rejects an order it answered without a Status (§3: the v2 status flow takes ACCEPTED and REJECTED; §4.3 names the endpoint, its payloads are the sandbox's own). " +
      'Only an order AWAITING_STATUS can be decided, once; the ExternalId must be the one the POS answered the delivery with, at its own location.',
    body: ref('OrderStatusRequest'),
    ok: 'The order is ACCEPTED or REJECTED; no body.',
    okHeader: ['x-sandbox-order-status', { schema: { enum: ['ACCEPTED', 'REJECTED'] } }],
    invalid: 'INVALID_PAYLOAD: location header, body, or an ExternalId the sandbox does not know at this location',
    envelope: 'OrderErrorEnvelope',
    more: { '409': 'INVALID_STATE: the order is not AWAITING_STATUS' },
  },
};

interface OrderDeps {
  store: SandboxStore;
  orders: OrderDesk;
  fixtures: Fixtures;
  egress: EgressPolicy;
  quota: QuotaBook;
}

/** A dispatch counted against deliveriesInFlight from before the order exists (a 429 stores and sends nothing) to the delivery's end. */
async function countedDispatch(quota: QuotaBook, start: () => Promise<{ dispatched: OrderRecord; delivered: Promise<OrderRecord> }>): Promise<{ dispatched: OrderRecord; delivered: Promise<OrderRecord> }> {
  const end = quota.startDelivery();
  try {
    const started = await start();
    started.delivered.then(end, end);
    return started;
  } catch (error) {
    end();
    throw error;
  }
}

const waitParameter = { name: 'wait', in: 'query', schema: { enum: ['true', 'false'] }, description: 'true: answer once the delivery has settled (up to 3 tries of 10 s) instead of at once with 202.' };
const dispatched = controlOk('DISPATCHED; the delivery goes on (GET /_sandbox/events, GET /_sandbox/orders/{id})', ref('OrderRecord'));

function waitFlag(req: Request): boolean {
  const { wait } = checkQuery(req.query, ['wait']);
  if (wait !== undefined && wait !== 'true' && wait !== 'false') throw new ApiError('INVALID_REQUEST', `wait must be true or false, got '${wait}'`);
  return wait === 'true';
}

export const ordersRoute: ControlRoute<OrderDeps> = {
  method: 'GET',
  path: '/_sandbox/orders',
  api: 'control',
  // Oldest first, a page at a time, like the refunds.
  handle: ({ store }) =>
    (req, res) => {
      const { location, status, template, limit, after } = checkQuery(req.query, ['location', 'status', 'template', 'limit', 'after']);
      if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status)) {
        throw new ApiError('INVALID_REQUEST', `status must be one of ${ORDER_STATUSES.join(', ')}, got '${status}'`);
      }
      const keep = (o: OrderRecord) => (location === undefined || o.LocationId === location) && (status === undefined || o.Status === status) && (template === undefined || o.Template === template);
      const page = pageAfter(store.orders.all(), (o) => o.OrderId, keep, pageLimit(limit, RECORD_PAGE), after);
      if (!page) throw unknownCursor('orders', after!);
      sendPage(req, res, page, 'after');
    },
  doc: {
    operationId: 'orders',
    summary: 'Orders, oldest first, a page at a time',
    description: 'Every order the sandbox made (the fixtures and those created here), each with the body sent, its deliveries and its status history (§3); filters by location, status and template.',
    parameters: [{ name: 'location', in: 'query', schema: { type: 'string' } }, { name: 'status', in: 'query', schema: { enum: [...ORDER_STATUSES] } }, { name: 'template', in: 'query', schema: { type: 'string' } }, ...pageParameters()],
    responses: controlResponses(
      { '200': pagedOk('Orders', { type: 'array', items: ref('OrderRecord') }) },
      { invalid: 'an unknown query parameter, a status that is not an order status, a bad limit, or an after that names no order' },
    ),
    examples: { status: 'ACCEPTED', after: 'ord-std-0002' },
  },
};

export const createOrderRoute: ControlRoute<OrderDeps> = {
  method: 'POST',
  path: '/_sandbox/orders',
  api: 'control',
  handle: ({ orders, fixtures, egress, quota }) => [
    readJsonBody,
    async (req, res) => {
      const wait = waitFlag(req);
      const check = checkNewOrderBody(jsonBody(res), fixtures, orderSchema().validate);
      if (!check.ok) throw new ApiError('INVALID_REQUEST', check.problems);
      // Refused before the order exists: nothing is stored, nothing is sent.
      const refused = check.request.posOrderUrl === undefined ? undefined : await egressProblem(egress, check.request.posOrderUrl, 'posOrderUrl');
      if (refused !== undefined) throw new ApiError('INVALID_REQUEST', refused);
      // A partner of a hosted sandbox can neither start the sandbox with a URL nor name one the operator did not allow.
      if (check.request.posOrderUrl === undefined && orders.defaultPosOrderUrl === undefined && egress.kind !== 'open') {
        throw new ApiError('INVALID_REQUEST', `no POS order URL for partner '${egress.partner}': give posOrderUrl in this body, at an origin the operator allowed for you (${allowedOrigins(egress)}), or ask the operator to set your posOrderUrl in the partners file`);
      }
      let orderId = '';
      const { dispatched, delivered } = await countedDispatch(quota, async () => {
        orderId = (await orders.create(check.request)).OrderId;
        return orders.dispatch(orderId, 'dispatch');
      });
      res.location(`/_sandbox/orders/${orderId}`);
      if (wait) res.status(201).json(await delivered);
      else res.status(202).json(dispatched);
    },
  ],
  doc: {
    operationId: 'createOrder',
    summary: 'Create an order from a template and deliver it to the POS',
    description:
      'Builds an order from a template of fixtures/order-templates for a location of its kind and delivers it to the POS order URL (§4.3: POST /order creates an order), retrying up to 3 times with the same OrderId and RequestId. ' +
      'Answers 202 at once, or with ?wait=true 201 once the delivery settled.',
    parameters: [waitParameter],
    requestBody: { required: true, content: json(ref('NewOrder')) },
    responses: controlResponses(
      { '201': controlOk('With ?wait=true: the order once its delivery settled', ref('OrderRecord')), '202': dispatched },
      {
        invalid: 'a body that is not a NewOrder (every problem listed), an unknown template or location, no POS order URL to send to, or a bad wait',
        conflict: 'ALREADY_EXISTS: an order with this orderId exists',
        readsBody: true,
        changesState: true,
      },
    ),
  },
};

export const orderRoute: ControlRoute<OrderDeps> = {
  method: 'GET',
  path: '/_sandbox/orders/:id',
  api: 'control',
  handle: ({ orders }) =>
    (req, res) => {
      const order = orders.get(String(req.params.id));
      if (!order) throw new ApiError('NOT_FOUND', `no order '${req.params.id}'; GET /_sandbox/orders lists them`);
      res.json(order);
    },
  doc: byId(
    'order',
    'One order, with its deliveries and status history',
    'The order as the sandbox holds it: the body it sent, every delivery try with the verdict on the reply, and every change of its status (§3).',
    'The order',
    ref('OrderRecord'),
    'no order with this OrderId',
    'ord-std-0003',
  ),
};

export const resendOrderRoute: ControlRoute<OrderDeps> = {
  method: 'POST',
  path: '/_sandbox/orders/:id/resend',
  api: 'control',
  handle: ({ orders, quota }) =>
    async (req, res) => {
      const wait = waitFlag(req);
      const { dispatched, delivered } = await countedDispatch(quota, () => orders.dispatch(String(req.params.id), 'resend'));
      if (wait) res.json(await delivered);
      else res.status(202).json(dispatched);
    },
  doc: {
    operationId: 'resendOrder',
    summary: 'Resend a REJECTED or DELIVERY_FAILED order (§3), same OrderId, new RequestId',
    description:
      '§3: a rejected order can be resent manually. The sandbox resends a REJECTED or DELIVERY_FAILED order with the same OrderId and a new RequestId; the POS must take it again. Answers 202 at once, or with ?wait=true 200 once the delivery settled.',
    parameters: [idParameter, waitParameter],
    responses: controlResponses(
      { '200': controlOk('With ?wait=true: the order once the delivery settled', ref('OrderRecord')), '202': dispatched },
      {
        invalid: 'a bad wait, an id that is not UTF-8 percent-encoding, or no POS order URL to send to',
        notFound: 'no order with this OrderId',
        conflict: 'INVALID_STATE: the order is neither REJECTED nor DELIVERY_FAILED',
        changesState: true,
      },
    ),
    examples: { id: 'ord-std-0003' },
  },
};

const ORDER_ID = { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' };
const POS_ORDER_URL = { type: 'string', format: 'uri', description: 'Default: --pos-order-url' };

/** The order model as components (SandboxOrder, SandboxOrder.<Name>), and the order resources of the control API. */
export function orderSchemas(model: object): Record<string, object> {
  return {
    ...schemaComponents('SandboxOrder', model),
    OrderStatusRequest: {
      type: 'object',
      required: ['ExternalId', 'Status'],
      properties: { ExternalId: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' }, Status: { enum: ['ACCEPTED', 'REJECTED'] }, Reason: { type: 'string' } },
    },
    NewOrder: { oneOf: [ref('NewOrderFromTemplate'), ref('NewOrderGiven')] },
    NewOrderGiven: {
      type: 'object',
      required: ['order'],
      additionalProperties: false,
      description: "An order given whole (what pos-sandbox stress sends and orders replay sends again), sent as it is with the sandbox's OrderId, RequestId and CreatedAt.",
      properties: {
        order: { type: 'object', description: 'An order of SandboxOrder, without OrderId, RequestId and CreatedAt; for a location of the fixtures, with Hub for a Hub brand and Kiosk for a kiosk' },
        orderId: { ...ORDER_ID, description: 'Default: generated' },
        posOrderUrl: POS_ORDER_URL,
        tries: { type: 'integer', minimum: 1, maximum: 10, description: "At most this many tries per dispatch (never more than the sandbox's own)" },
      },
    },
    NewOrderFromTemplate: {
      type: 'object',
      required: ['template'],
      additionalProperties: false,
      properties: {
        template: { type: 'string', description: 'standard, hub or kiosk (fixtures/order-templates)' },
        locationId: { type: 'string', description: "Default: the first location of the template's kind" },
        orderId: { ...ORDER_ID, description: 'Default: generated. Choose it to tell a driver the decision first.' },
        eatIn: { type: 'boolean', description: 'Kiosk only' },
        pagerNumber: { type: 'string', description: 'Kiosk only' },
        posOrderUrl: POS_ORDER_URL,
      },
    },
    OrderRecord: {
      type: 'object',
      required: ['OrderId', 'LocationId', 'Template', 'Status', 'CreatedAt'],
      properties: {
        OrderId: { type: 'string' },
        LocationId: { type: 'string' },
        Template: { type: 'string' },
        Status: { enum: [...ORDER_STATUSES] },
        ExternalId: { type: 'string', description: 'What the POS answered the order with' },
        Reason: { type: 'string' },
        CreatedAt: { type: 'string', format: 'date-time' },
        UpdatedAt: { type: 'string', format: 'date-time' },
        PosOrderUrl: { type: 'string' },
        Order: ref('SandboxOrder'),
        Deliveries: { type: 'array', items: { type: 'object' } },
        History: { type: 'array', items: { type: 'object' } },
        Findings: { type: 'array', items: { type: 'object' } },
      },
    },
  };
}
