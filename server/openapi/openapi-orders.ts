/** The order parts of openapi.json: POST /order/status, /_sandbox/orders, /_sandbox/events, and the order model. */
import { ORDER_STATUSES } from '../orders/order-states.js';
import { EVENT_TYPES } from '../events/sandbox-events.js';
import { controlOk, controlResponses, getById, json, posOperation, ref, schemaComponents } from './openapi-parts.js';
import { pagedOk, pageParameters } from './openapi-paging.js';

export const orderStatusOperation = (mount: string) =>
  posOperation({
    method: 'post',
    name: 'orderStatus',
    mount,
    summary: 'Accept or reject an order (§3, §4.3)',
    description:
      'The POS accepts or rejects an order it answered without a Status (§3: the v2 status flow takes ACCEPTED and REJECTED; §4.3 names the endpoint, its payloads are the sandbox\'s own). ' +
      'Only an order AWAITING_STATUS can be decided, once; the ExternalId must be the one the POS answered the delivery with, at its own location.',
    body: ref('OrderStatusRequest'),
    ok: 'The order is ACCEPTED or REJECTED; no body.',
    okHeader: ['x-sandbox-order-status', { schema: { enum: ['ACCEPTED', 'REJECTED'] } }],
    invalid: 'INVALID_PAYLOAD: location header, body, or an ExternalId the sandbox does not know at this location',
    envelope: 'OrderErrorEnvelope',
    more: { '409': 'INVALID_STATE: the order is not AWAITING_STATUS' },
  });

const waitParameter = {
  name: 'wait',
  in: 'query',
  schema: { enum: ['true', 'false'] },
  description: 'true: answer once the delivery has settled (up to 3 tries of 10 s) instead of at once with 202.',
};

export function orderPaths() {
  const created = (ok: Record<string, object>) => ({
    ...ok,
    '202': controlOk('DISPATCHED; the delivery goes on (GET /_sandbox/events, GET /_sandbox/orders/{id})', ref('OrderRecord')),
  });
  return {
    '/_sandbox/orders': {
      get: {
        operationId: 'orders',
        tags: ['Control API'],
        summary: 'Orders, oldest first, a page at a time',
        description: 'Every order the sandbox made (the fixtures and those created here), each with the body sent, its deliveries and its status history (§3); filters by location, status and template.',
        parameters: [
          { name: 'location', in: 'query', schema: { type: 'string' } },
          { name: 'status', in: 'query', schema: { enum: [...ORDER_STATUSES] } },
          { name: 'template', in: 'query', schema: { type: 'string' } },
          ...pageParameters(),
        ],
        responses: controlResponses(
          { '200': pagedOk('Orders', { type: 'array', items: ref('OrderRecord') }) },
          { invalid: 'an unknown query parameter, a status that is not an order status, a bad limit, or an after that names no order' },
        ),
      },
      post: {
        operationId: 'createOrder',
        tags: ['Control API'],
        summary: 'Create an order from a template and deliver it to the POS',
        description:
          'Builds an order from a template of fixtures/order-templates for a location of its kind and delivers it to the POS order URL (§4.3: POST /order creates an order), retrying up to 3 times with the same OrderId and RequestId. ' +
          'Answers 202 at once, or with ?wait=true 201 once the delivery settled.',
        parameters: [waitParameter],
        requestBody: { required: true, content: json(ref('NewOrder')) },
        responses: controlResponses(created({ '201': controlOk('With ?wait=true: the order once its delivery settled', ref('OrderRecord')) }), {
          invalid: 'a body that is not a NewOrder (every problem listed), an unknown template or location, no POS order URL to send to, or a bad wait',
          conflict: 'ALREADY_EXISTS: an order with this orderId exists',
          readsBody: true,
          changesState: true,
        }),
      },
    },
    '/_sandbox/orders/{id}': getById(
      'order',
      'One order, with its deliveries and status history',
      'The order as the sandbox holds it: the body it sent, every delivery try with the verdict on the reply, and every change of its status (§3).',
      'The order',
      ref('OrderRecord'),
      'no order with this OrderId',
    ),
    '/_sandbox/orders/{id}/resend': {
      post: {
        operationId: 'resendOrder',
        tags: ['Control API'],
        summary: 'Resend a REJECTED or DELIVERY_FAILED order (§3), same OrderId, new RequestId',
        description:
          '§3: a rejected order can be resent manually. The sandbox resends a REJECTED or DELIVERY_FAILED order with the same OrderId and a new RequestId; the POS must take it again. Answers 202 at once, or with ?wait=true 200 once the delivery settled.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, waitParameter],
        responses: controlResponses(created({ '200': controlOk('With ?wait=true: the order once the delivery settled', ref('OrderRecord')) }), {
          invalid: 'a bad wait, an id that is not UTF-8 percent-encoding, or no POS order URL to send to',
          notFound: 'no order with this OrderId',
          conflict: 'INVALID_STATE: the order is neither REJECTED nor DELIVERY_FAILED',
          changesState: true,
        }),
      },
    },
    '/_sandbox/events': {
      get: {
        operationId: 'events',
        tags: ['Control API'],
        summary: 'Server-sent events: orders, refunds, menu changes, journal entries',
        description:
          'The sandbox\'s own event stream for tools (§6: events are not shown; nothing is pushed to the POS). ' +
          'Each event: `id`, `event` (its type) and `data` {id, type, time, data}. Last-Event-ID replays the events held since (the last 500). ' +
          'A client that reads slower than events come has at most 1 MiB of them kept for it; past that the stream ends with an `event: dropped` (no id; data {type, reason}) and the connection closes: reconnect with Last-Event-ID to catch up.',
        parameters: [{ name: 'types', in: 'query', schema: { type: 'string' }, description: `Comma-separated: ${EVENT_TYPES.join(', ')}` }],
        responses: controlResponses(
          { '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
          { invalid: 'an unknown query parameter or event type' },
        ),
      },
    },
  };
}

/** The order model of order-model/ as components (SandboxOrder, SandboxOrder.<Name>), and the order resources. */
export function orderModelSchemas(orderSchema: object): Record<string, object> {
  const schemas = schemaComponents('SandboxOrder', orderSchema);
  return {
    ...schemas,
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
      description: 'An order given whole (what pos-sandbox stress sends and orders replay sends again), sent as it is with the sandbox\'s OrderId, RequestId and CreatedAt.',
      properties: {
        order: { type: 'object', description: 'An order of SandboxOrder, without OrderId, RequestId and CreatedAt; for a location of the fixtures, with Hub for a Hub brand and Kiosk for a kiosk' },
        orderId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'Default: generated' },
        posOrderUrl: { type: 'string', format: 'uri', description: 'Default: --pos-order-url' },
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
        orderId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'Default: generated. Choose it to tell a driver the decision first.' },
        eatIn: { type: 'boolean', description: 'Kiosk only' },
        pagerNumber: { type: 'string', description: 'Kiosk only' },
        posOrderUrl: { type: 'string', format: 'uri', description: 'Default: --pos-order-url' },
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
