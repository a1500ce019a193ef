/** The order parts of openapi.json: POST /order/status, /_sandbox/orders, /_sandbox/events, and the order model. */
import { ORDER_STATUSES } from '../domain/order-states.js';
import { EVENT_TYPES } from '../events/sandbox-events.js';
import { controlError, controlOk, getById, json, posOperation, ref, schemaComponents } from './openapi-parts.js';
import { pagedOk, pageParameters } from './openapi-paging.js';

export const orderStatusOperation = (mount: string) =>
  posOperation({
    method: 'post',
    name: 'orderStatus',
    mount,
    summary: 'Accept or reject an order (§3, §4.3)',
    description: 'The POS decides an order it answered without Status. Only an order AWAITING_STATUS can be decided, once.',
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
  const dispatched = {
    '202': controlOk('DISPATCHED; the delivery goes on (GET /_sandbox/events, GET /_sandbox/orders/{id})', ref('OrderRecord')),
    '400': controlError,
    '409': controlError,
  };
  return {
    '/_sandbox/orders': {
      get: {
        operationId: 'orders',
        tags: ['Control API'],
        summary: 'Orders, oldest first, a page at a time',
        parameters: [
          { name: 'location', in: 'query', schema: { type: 'string' } },
          { name: 'status', in: 'query', schema: { enum: [...ORDER_STATUSES] } },
          { name: 'template', in: 'query', schema: { type: 'string' } },
          ...pageParameters(),
        ],
        responses: { '200': pagedOk('Orders', { type: 'array', items: ref('OrderRecord') }), '400': controlError },
      },
      post: {
        operationId: 'createOrder',
        tags: ['Control API'],
        summary: 'Create an order from a template and deliver it to the POS',
        parameters: [waitParameter],
        requestBody: { required: true, content: json(ref('NewOrder')) },
        responses: { '201': controlOk('With ?wait=true: the order once its delivery settled', ref('OrderRecord')), ...dispatched },
      },
    },
    '/_sandbox/orders/{id}': getById('order', 'One order, with its deliveries and status history', 'The order', ref('OrderRecord')),
    '/_sandbox/orders/{id}/resend': {
      post: {
        operationId: 'resendOrder',
        tags: ['Control API'],
        summary: 'Resend a REJECTED or DELIVERY_FAILED order (§3), same OrderId, new RequestId',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, waitParameter],
        responses: { '200': controlOk('With ?wait=true: the order once the delivery settled', ref('OrderRecord')), ...dispatched, '404': controlError },
      },
    },
    '/_sandbox/events': {
      get: {
        operationId: 'events',
        tags: ['Control API'],
        summary: 'Server-sent events: orders, refunds, menu changes, journal entries',
        description:
          'Each event: `id`, `event` (its type) and `data` {id, type, time, data}. Last-Event-ID replays the events held since (the last 500). ' +
          'A client that reads slower than events come has at most 1 MiB of them kept for it; past that the stream ends with an `event: dropped` (no id; data {type, reason}) and the connection closes: reconnect with Last-Event-ID to catch up.',
        parameters: [{ name: 'types', in: 'query', schema: { type: 'string' }, description: `Comma-separated: ${EVENT_TYPES.join(', ')}` }],
        responses: { '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, '400': controlError },
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
    NewOrder: {
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
