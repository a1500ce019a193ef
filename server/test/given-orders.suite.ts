/**
 * POST /_sandbox/orders with an order given whole ({"order"}, what `pos-sandbox stress` sends and `orders replay`
 * sends again): delivered as given, every problem of a bad one named, and `tries` never more than the sandbox's own.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { closeServers, createOrder, listen, liveSandbox } from './live.js';
import { orderEnvelope } from './helpers.js';
import { settle } from '../stress/order-arbitrary.js';
import type { GivenOrder } from '../orders/new-order.js';

afterEach(closeServers);

const GIVEN = settle({
  LocationId: 'loc-std-001',
  Channel: 'web',
  ServiceType: 'Takeout',
  Currency: 'EUR',
  Items: [{ Id: 'itm-1', Name: '拉麺 🍜', Quantity: 40, UnitPrice: 0, Variations: [], Modifiers: [{ Id: 'mod-1', Name: 'Egg', Quantity: 2, Price: 150 }] }],
  Fees: [],
  Promotions: [],
  Taxes: [],
  Payment: { Prepaid: true, Method: 'card', Amount: 0 },
  Total: 0,
} as unknown as GivenOrder);

/** A POS that answers every order 500, counting the tries. */
function failingPos() {
  const tries: string[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    tries.push(String(req.headers['x-sandbox-attempt']));
    req.resume().on('end', () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}'));
  };
  return { tries, handler };
}

describe('POST /_sandbox/orders with an order given whole', () => {
  it('delivers the order as given, with the OrderId, RequestId and CreatedAt the sandbox sets', async () => {
    const sandbox = await liveSandbox();
    const bodies: Array<Record<string, unknown>> = [];
    const posUrl = await listen((req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ExternalId":"EXT-1","Status":"ACCEPTED"}');
      });
    });
    const response = await createOrder(sandbox.app, { order: { ...GIVEN, OrderId: 'mine', RequestId: 'mine' }, orderId: 'ord-given-1', posOrderUrl: `${posUrl}/order` });
    expect(response.status).toBe(201);
    expect(bodies).toEqual([{ ...GIVEN, OrderId: 'ord-given-1', RequestId: expect.stringMatching(/^req-/), CreatedAt: expect.any(String) }]);
    expect(response.body).toMatchObject({ OrderId: 'ord-given-1', Template: 'standard', LocationId: 'loc-std-001', Order: { ...GIVEN, OrderId: 'ord-given-1' } });
    expect(response.body.Order.RequestId).toMatch(/^req-/);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['not an object', { order: [] }, ['order must be a JSON object (an order of order-model/sandbox-order.schema.json), got array []']],
    ['a template beside it, and a field unknown', { order: GIVEN, template: 'standard', colour: 'red' }, ["template does not go with order: an order given whole names its location, and its kind and options, itself", "unknown field 'colour'; with order, the fields are order, orderId, posOrderUrl, tries"]],
    ['an unknown location', { order: { ...GIVEN, LocationId: 'loc-nowhere' } }, ['order.LocationId string "loc-nowhere" is not a location; GET /_sandbox/locations lists them']],
    ['a Hub brand order without its Hub', { order: { ...GIVEN, LocationId: 'loc-hub-001-burgers' } }, ['order.Hub is missing: loc-hub-001-burgers is a Hub brand location, and its orders name the Hub and the brand']],
    ['tries of 0', { order: GIVEN, tries: 0 }, ["tries must be a whole number from 1 to 10 (more than the sandbox's own tries makes no more), got number 0"]],
    ['tries of 11', { order: GIVEN, tries: 11 }, ["tries must be a whole number from 1 to 10 (more than the sandbox's own tries makes no more), got number 11"]],
    ['tries of "2"', { order: GIVEN, tries: '2' }, ["tries must be a whole number from 1 to 10 (more than the sandbox's own tries makes no more), got string \"2\""]],
  ])('answers 400 INVALID_REQUEST for %s, and keeps nothing', async (_name, body, messages) => {
    const sandbox = await liveSandbox({ posOrderUrl: 'http://127.0.0.1:9/order' });
    const before = (await request(sandbox.app).get('/_sandbox/orders')).body.length;
    const response = await createOrder(sandbox.app, body);
    expect([response.status, response.body]).toEqual([400, orderEnvelope('INVALID_REQUEST', ...messages)]);
    expect((await request(sandbox.app).get('/_sandbox/orders')).body).toHaveLength(before);
  });

  it('makes at most `tries` tries, and never more than the sandbox makes', async () => {
    const sandbox = await liveSandbox({ dispatch: { attempts: 3, retryDelaysMs: [5] } });
    const pos = failingPos();
    const posOrderUrl = `${await listen(pos.handler)}/order`;
    const one = await createOrder(sandbox.app, { order: GIVEN, tries: 1, posOrderUrl });
    expect([one.body.Status, one.body.Reason, one.body.Deliveries.length]).toEqual(['DELIVERY_FAILED', '1 try failed; the last: the POS answered 500; an order is delivered only by a 2xx with {"ExternalId":"...","Status"?:"ACCEPTED"|"REJECTED","Reason"?}', 1]);
    expect(pos.tries).toEqual(['1 of 1']);
    const many = await createOrder(sandbox.app, { order: GIVEN, tries: 10, posOrderUrl });
    expect(many.body.Deliveries).toHaveLength(3);
    expect(pos.tries.slice(1)).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    // A resend of the order keeps its tries.
    const resent = await request(sandbox.app).post(`/_sandbox/orders/${one.body.OrderId}/resend?wait=true`);
    expect(resent.body.Deliveries).toHaveLength(2);
  });
});
