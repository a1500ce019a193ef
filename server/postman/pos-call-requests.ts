/** Pure: the collection's POS calls (§4), each with the headers §4 and §5 ask for; its pre-request script signs their tokens. */
import { posStatusProblem } from '../orders/order-rules.js';
import { request, type PostmanRequestItem, answers, check, errorBody, expectStatus, noFindings } from './postman-format.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import type { Location } from '../fixtures/fixture-schemas.js';

/** The headers of every POS call; the token comes from the collection's Bearer auth. */
export function posHeaders(locationVariable = '{{locationId}}'): Record<string, string> {
  return { 'x-service-locationid': locationVariable, 'x-api-key': '{{apiKey}}', 'x-api-version': '{{apiVersion}}' };
}

export function refundRequest(): PostmanRequestItem {
  return request('Refund an order (POST /v2/order/refund)', 'POST', '/v2/order/refund', {
    description: [
      'The refund of §4.1: answered 200 with no body once the token, the location header and ExternalId check out; the refund is processed a second later (GET /_sandbox/refunds shows how it ended).',
      'Each send names a new ExternalId, so a second send is no DUPLICATE_REFUND. No order has that id, so the refund ends FAILED ORDER_NOT_FOUND; put POS-STD-1002 in the body to see one PROCESSED (once).',
    ].join('\n\n'),
    headers: posHeaders(),
    body: { ExternalId: '{{refundExternalId}}' },
    prerequest: ["pm.collectionVariables.set('refundExternalId', 'POSTMAN-' + pm.variables.replaceIn('{{$guid}}'));"],
    tests: [
      ...check('answers 200 with no body', [expectStatus(200), "pm.expect(pm.response.text()).to.equal('');"]),
      ...noFindings(),
      "pm.collectionVariables.set('refundJournalId', pm.response.headers.get('x-sandbox-journal-id') || '');",
    ],
  });
}

export function menuRequests(examples: PostmanExamples): PostmanRequestItem[] {
  const [a, b] = examples.menuItems;
  const applied = [...answers(200, 'with no body: the update is applied'), ...noFindings()];
  return [
    request('Update the menu, form A (PUT /v2/menu)', 'PUT', '/v2/menu', {
      description: `Form A of §2.2: LocationId in the body, ServiceType on each price. A new price for ${a.Name} (${a.Id}), a real item of the location's menu; Name is required, so it is the current one. See the result with GET /_sandbox/locations/{{locationId}}/menu.`,
      headers: posHeaders(),
      body: { LocationId: '{{locationId}}', Items: [{ Id: a.Id, Name: a.Name, Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: a.Price + 50 }] }] },
      tests: applied,
    }),
    request('Update the menu, form B (PUT /v2/menu)', 'PUT', '/v2/menu', {
      description: `Form B of §2.2: no LocationId (the x-service-locationid header names the location), Service on each price. The same PUT /menu: the sandbox tells the forms apart by the body. A new price for ${b.Name} (${b.Id}).`,
      headers: posHeaders(),
      body: { Items: [{ Id: b.Id, Name: b.Name, Type: 'Item', Prices: [{ Service: 'Pickup', Price: b.Price + 100 }] }] },
      tests: applied,
    }),
  ];
}

/** A status is taken once, while the order awaits it; otherwise the answer is 409 INVALID_STATE. */
export function orderStatusRequest(): PostmanRequestItem {
  // The sandbox's own wording, with the order and its status filled in when the test runs.
  const decided = posStatusProblem({ OrderId: '{{orderId}}', Status: 'ACCEPTED' }, 'ACCEPTED')!.replace('(ACCEPTED)', '({{orderStatus}})');
  return request('Send an order status (POST /v2/order/status)', 'POST', '/v2/order/status', {
    description: [
      'The POS decides an order it was sent (§3): ACCEPTED, or REJECTED with a Reason. The sandbox takes a status once, while the order is AWAITING_STATUS: after the POS answered the delivery with an ExternalId and no Status.',
      'When "Create an order" reached a POS that answered that way, this accepts it (200). Otherwise it names a decided order of the fixtures and shows the 409 INVALID_STATE a second status draws.',
    ].join('\n\n'),
    headers: posHeaders('{{orderLocationId}}'),
    body: { ExternalId: '{{orderExternalId}}', Status: 'ACCEPTED' },
    tests: [
      "if (pm.collectionVariables.get('orderStatus') === 'AWAITING_STATUS') {",
      ...check('answers 200: the order is ACCEPTED (or 409 INVALID_STATE if the POS sent its own status first)', [
        'pm.expect(pm.response.code, pm.response.text()).to.be.oneOf([200, 409]);',
        "if (pm.response.code === 409) pm.expect(pm.response.json().errors[0].code).to.equal('INVALID_STATE');",
        "else pm.expect(pm.response.headers.get('x-sandbox-order-status')).to.equal('ACCEPTED');",
      ]).map((line) => `  ${line}`),
      '} else {',
      ...check('answers 409 INVALID_STATE: the order was decided already', [expectStatus(409), errorBody('INVALID_STATE', decided)]).map((line) => `  ${line}`),
      '}',
      ...noFindings(),
    ],
  });
}

/** Pure: the fixture data the collection's examples are made of, so that each example is answered as it says. */

export interface MenuExample {
  Id: string;
  Name: string;
  /** The item's Takeout price now; the examples send it plus a little, a change the sandbox applies. */
  Price: number;
}

/** An ACCEPTED fixture order: its status call and its resend are both answered 409. */
export interface DecidedOrder {
  OrderId: string;
  ExternalId: string;
  LocationId: string;
  Status: 'ACCEPTED';
}

export interface PostmanExamples {
  location: Location;
  /** The order template of the location's kind, for POST /_sandbox/orders. */
  template: string;
  /** Form A updates the first, form B the second (or the first again when the menu has one). */
  menuItems: [MenuExample, MenuExample];
  decidedOrder: DecidedOrder;
}

/** The examples for `locationId` (default: the first standard location), or why the fixtures cannot give them. */
export function pickExamples(fixtures: Fixtures, locationId: string | undefined): { ok: true; examples: PostmanExamples } | { ok: false; problem: string } {
  const location = locationId === undefined ? fixtures.locations.find((l) => l.kind === 'standard') : fixtures.locations.find((l) => l.id === locationId);
  const known = fixtures.locations.map((l) => l.id).join(', ');
  if (!location) {
    return { ok: false, problem: locationId === undefined ? `the fixtures have no standard location; choose one with --location (${known})` : `--location '${locationId}' is not a fixture location (${known})` };
  }
  // Takeout: the one service type §2.2 lists for form A; another would draw UNDOCUMENTED_VALUE.
  const items = (fixtures.menus[location.id]?.Items ?? []).flatMap((item) => {
    const takeout = item.Prices.find((price) => price.ServiceType === 'Takeout');
    return takeout ? [{ Id: item.Id, Name: item.Name, Price: takeout.Price }] : [];
  });
  if (items.length === 0) return { ok: false, problem: `the menu of location '${location.id}' has no item with a Takeout price to update` };
  const template = Object.values(fixtures.templates).find((t) => t.LocationKind === location.kind)?.Template;
  if (!template) return { ok: false, problem: `the fixtures have no order template for ${location.kind} locations like '${location.id}'` };
  const decided = fixtures.orders
    .filter((order) => order.ExternalId !== undefined && order.Status === 'ACCEPTED')
    .sort((a, b) => Number(b.LocationId === location.id) - Number(a.LocationId === location.id))[0];
  if (!decided) return { ok: false, problem: 'the fixtures have no ACCEPTED order with an ExternalId for the status call to name' };
  return {
    ok: true,
    examples: {
      location,
      template,
      menuItems: [items[0]!, items[1] ?? items[0]!],
      decidedOrder: { OrderId: decided.OrderId, ExternalId: decided.ExternalId!, LocationId: decided.LocationId, Status: 'ACCEPTED' },
    },
  };
}
