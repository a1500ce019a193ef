/** Pure: the OpenAPI document of what the POS serves (openapi/pos-side.json): the order delivery as a webhook (§4.3) and the checklist's driver contract, for a stub or the partner's own tools. */
import { schemaComponents } from './openapi-parts.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const header = (description: string, schema: object = { type: 'string', minLength: 1 }) => ({ required: true, description, schema });

/** The driver's answer: 2xx when the POS did what was asked (even when the sandbox refused its call); free-form. */
const driverAnswers = (refusal: string) => ({
  '200': { description: 'The POS did what was asked and read the sandbox\'s answer (a refusal included: the checklist judges it from the journal). Free-form; the reference POS returns the sandbox\'s answer.', content: json(ref('DriverAnswer')) },
  '400': { description: refusal, content: json(ref('DriverAnswer')) },
});

export function posSideOpenApi(version: string, orderSchema: object, exampleOrder: object): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'POS Sandbox: what your POS serves',
      version,
      description: [
        'The POS side of the interface, as the sandbox calls it: the order delivery (a webhook: the service calls the POS, §4.3) and the driver contract of the certification checklist (docs/certification.md), which a POS test build serves so the checklist can make it act.',
        'The order body is the sandbox\'s own model (order-model/: §2.5 names its parts, not its fields). Its companion, openapi.json, describes what the POS calls.',
        'No license object: the package is UNLICENSED (private).',
      ].join('\n\n'),
    },
    servers: [{ url: 'http://127.0.0.1:4200', description: 'your POS test build (the bundled reference POS listens here by default)' }],
    tags: [
      { name: 'Orders', description: 'What the service sends the POS (§4.3), and what the POS answers.' },
      { name: 'Driver', description: 'The checklist\'s driver contract: how a POS test build lets the certification checklist make it act (docs/certification.md).' },
    ],
    webhooks: {
      orderDelivery: {
        post: {
          operationId: 'deliverOrder',
          tags: ['Orders'],
          summary: 'An order for the POS (POST to its order URL)',
          description: [
            'The service sends an order to the POS\'s order URL (§4.3), with a service → POS token (§5): HS256 with the partner\'s key, iss io.service.pos.brokers.openapi, aud the POS name, sub the order\'s location. A POS checks it before it creates anything: a bad signature, an expired token or another audience gets 401 and creates nothing (AUTH-10 to AUTH-12).',
            'The POS answers within the delivery timeout (10 s in the sandbox; §4.3 where the interface is silent) with 2xx and its ExternalId, and decides the order then (Status in the reply) or later (POST /order/status, §3). Any other answer, or none in time, is a failed try: the same order (same OrderId and RequestId, a new token) is tried again, 3 tries in all. A resend is a new dispatch with a new RequestId. One OrderId always gets one ExternalId (§9).',
          ].join('\n\n'),
          security: [{ serviceToken: [] }],
          parameters: [
            { name: 'x-service-locationid', in: 'header', ...header("The order's location: its LocationId (for a Hub, the brand's location).") },
            { name: 'x-request-id', in: 'header', ...header('The delivery\'s RequestId (§2.5): the same on every try of one dispatch, a new one for a resend.') },
            { name: 'x-sandbox-attempt', in: 'header', required: false, description: 'The sandbox\'s own: which try this is (`2 of 3`). Not the service\'s.', schema: { type: 'string', pattern: '^\\d+ of \\d+$' } },
          ],
          requestBody: { required: true, content: json(ref('SandboxOrder'), exampleOrder) },
          responses: {
            '200': {
              description: 'The order is delivered: the POS has it, under its ExternalId. Any 2xx with this body delivers it; an unknown field is a finding.',
              content: json(ref('OrderReply'), { ExternalId: 'POS-STD-1001' }),
            },
            '401': {
              description: 'The token is not the service\'s (signature, expiry, audience): the POS created nothing. Any body; the sandbox shows it.',
              content: json(ref('PosRefusal'), { error: 'token signature does not verify' }),
            },
            default: { description: 'Any other answer is a failed try: the sandbox tries again, and shows the body it got.', content: json(ref('PosRefusal')) },
          },
        },
      },
    },
    paths: {
      '/health': {
        get: {
          operationId: 'driverHealth',
          // The driver is the POS test build's own, on the CI machine or the laptop: it takes no credential.
          security: [],
          tags: ['Driver'],
          summary: 'Is the POS test build up?',
          description: 'Answers 2xx: checked before a checklist run (and waited for by `certify`). `product: "pos-sandbox reference POS"` only for that POS: its runs are demos.',
          responses: {
            '200': { description: 'Up.', content: json(ref('DriverHealth'), { status: 'ok' }) },
            '404': { description: 'Not the driver\'s base URL: the run exits 2.', content: json(ref('DriverAnswer')) },
          },
        },
      },
      '/decide': {
        post: {
          operationId: 'driverDecide',
          // The driver is the POS test build's own, on the CI machine or the laptop: it takes no credential.
          security: [],
          tags: ['Driver'],
          summary: 'How the POS is to decide an order',
          description: 'Remembers the decision for that OrderId, for every later delivery of it (a retry, a duplicate, a resend) until the next /decide; it may come before the order does. An order with no decision is accepted.',
          requestBody: { required: true, content: json(ref('DecideRequest'), { orderId: 'chk-1a2b3c-01', decision: 'ACCEPTED' }) },
          responses: driverAnswers('The request is not one the driver takes.'),
        },
      },
      '/refund': {
        post: {
          operationId: 'driverRefund',
          // The driver is the POS test build's own, on the CI machine or the laptop: it takes no credential.
          security: [],
          tags: ['Driver'],
          summary: 'Refund an order, as the merchant would at the POS',
          description: 'The POS sends POST /order/refund (§4.1) through its normal refund code path, and answers once it has its answer (after its retries, if it retries).',
          requestBody: { required: true, content: json(ref('RefundAsk'), { sandboxUrl: 'http://127.0.0.1:4100', locationId: 'loc-std-001', externalId: 'POS-STD-1001' }) },
          responses: driverAnswers('The POS refused the ask itself and sent nothing.'),
        },
      },
      '/menu': {
        post: {
          operationId: 'driverMenu',
          // The driver is the POS test build's own, on the CI machine or the laptop: it takes no credential.
          security: [],
          tags: ['Driver'],
          summary: 'Change the POS\'s menu and send the update',
          description: 'The POS makes the changes to its own menu and sends a partial update (§4.2) in the form asked. An item Id it does not know is refused with 4xx, and nothing is sent (MENU-05).',
          requestBody: { required: true, content: json(ref('MenuAsk'), { sandboxUrl: 'http://127.0.0.1:4100', locationId: 'loc-std-001', form: 'A', changes: [{ itemId: 'itm-margherita', price: 1150 }] }) },
          responses: driverAnswers('An item Id the POS does not know: refused, nothing sent.'),
        },
      },
    },
    components: {
      securitySchemes: {
        serviceToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "The service → POS token (§5): HS256 with the partner's non-prod key; iss io.service.pos.brokers.openapi, aud the POS name, sub the location, jti, nbf, exp.",
        },
      },
      schemas: {
        ...schemaComponents('SandboxOrder', orderSchema),
        OrderReply: {
          type: 'object',
          required: ['ExternalId'],
          description: 'What delivers an order: the POS\'s id for it, and optionally its decision now.',
          properties: {
            ExternalId: { type: 'string', minLength: 1, pattern: '\\S', description: 'The POS\'s id of the order (§2.1): every later call about it names it.' },
            Status: { enum: ['ACCEPTED', 'REJECTED'], description: 'The decision now; leave it out to send POST /order/status later (§3).' },
            Reason: { type: 'string', description: 'Why an order was REJECTED.' },
          },
        },
        PosRefusal: { description: 'Any body: the sandbox journals and shows it.' },
        DriverHealth: {
          type: 'object',
          description: 'Any JSON object; `product` names the reference POS.',
          properties: { status: { type: 'string' }, product: { type: 'string' } },
        },
        DriverAnswer: { description: 'Free-form: the checklist judges the traffic in the journal, never this.' },
        DecideRequest: {
          type: 'object',
          required: ['orderId', 'decision'],
          properties: { orderId: { type: 'string', minLength: 1 }, decision: { enum: ['ACCEPTED', 'REJECTED'] }, reason: { type: 'string' } },
        },
        RefundAsk: {
          type: 'object',
          required: ['locationId', 'externalId'],
          properties: {
            sandboxUrl: { type: 'string', format: 'uri', description: 'The service base URL (no /v2); a test build may ignore it if it is configured already.' },
            locationId: { type: 'string', minLength: 1 },
            externalId: { type: 'string', minLength: 1 },
          },
        },
        MenuAsk: {
          type: 'object',
          required: ['locationId', 'form', 'changes'],
          properties: {
            sandboxUrl: { type: 'string', format: 'uri' },
            locationId: { type: 'string', minLength: 1 },
            form: { enum: ['A', 'B'], description: 'A unless the partner declared menu-form-b.' },
            changes: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['itemId'],
                properties: {
                  itemId: { type: 'string', minLength: 1 },
                  price: { type: 'integer', minimum: 0, description: 'Whole minor units (1150 is 11.50), as on the wire.' },
                  name: { type: 'string' },
                  serviceType: { type: 'string', description: 'The price it sets (Takeout when absent; form B sends it as Service: Pickup).' },
                },
              },
            },
          },
        },
      },
    },
  };
}
