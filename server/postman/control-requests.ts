/** Pure: the collection's control calls, which opt out of its Bearer auth (loopback needs none) and keep what later requests need. */
import { resendProblem } from '../orders/order-rules.js';
import type { PostmanExamples } from './pos-call-requests.js';
import { NO_AUTH, request, type PostmanRequestItem, answers, check, errorBody, expectStatus, literal } from './postman-format.js';

const control = (
  name: string,
  method: PostmanRequestItem['request']['method'],
  target: string,
  options: { description: string; tests: string[]; body?: unknown },
): PostmanRequestItem => request(name, method, target, { ...options, auth: NO_AUTH });

/** What the sandbox answers POST /_sandbox/orders when it was started without a POS order URL. */
export const NO_POS_ORDER_URL =
  'no POS order URL: start the sandbox with --pos-order-url URL (or SANDBOX_POS_ORDER_URL), or give posOrderUrl in this body';

export function sandboxRequests(): PostmanRequestItem[] {
  return [
    control('Health', 'GET', '/_sandbox/health', {
      description: 'Is the sandbox up, and where does it send orders? The test keeps the POS order URL for "Create an order".',
      tests: [
        ...check('answers 200, status ok', [expectStatus(200), "pm.expect(pm.response.json().status).to.equal('ok');"]),
        "pm.collectionVariables.set('sandboxPosOrderUrl', (pm.response.json().delivery || {}).posOrderUrl || '');",
      ],
    }),
    control('Reset to the fixtures', 'POST', '/_sandbox/reset', {
      description: 'Brings back the fixtures (menus, orders) and clears the refunds, the journal and the seen jtis; the fault rules of --faults come back. First in the collection, so a run starts from the same state every time; do not send it in the middle of a session you want to keep.',
      tests: check('answers 200, reset', [expectStatus(200), 'pm.expect(pm.response.json().reset).to.equal(true);']),
    }),
    control('Partner', 'GET', '/_sandbox/partners', {
      description: 'The POS name and a fingerprint of its non-prod key (never the key). The tests check the environment against them: a different posName or nonProdKey would have every POS call refused 401.',
      tests: [
        ...answers(200),
        "const partner = pm.response.json()[0];",
        ...check("the environment's posName is the sandbox's POS name", ["pm.expect(pm.variables.get('posName')).to.equal(partner.name);"]),
        ...check("the environment's nonProdKey is the key the sandbox holds", [
          "pm.expect('sha256:' + require('crypto-js').SHA256(pm.variables.get('nonProdKey')).toString().slice(0, 16)).to.equal(partner.keyFingerprint);",
        ]),
      ],
    }),
    control('Locations', 'GET', '/_sandbox/locations', {
      description: 'The fixture locations: standard, the two brand locations of a Hub, a kiosk.',
      tests: [...answers(200), ...check('lists the location of the environment', ["pm.expect(pm.response.json().map((l) => l.id)).to.include(pm.variables.get('locationId'));"])],
    }),
    control("The location's menu", 'GET', '/_sandbox/locations/{{locationId}}/menu', {
      description: 'The menu as it is now: the menu updates of this collection change two prices of it.',
      tests: [...answers(200), ...check('is the menu of that location', ["pm.expect(pm.response.json().LocationId).to.equal(pm.variables.get('locationId'));"])],
    }),
    control('Mint a token', 'POST', '/_sandbox/tokens', {
      description: 'A valid POS → service token and its claims, for a tool that cannot sign one. This collection signs its own (see the collection\'s Scripts tab), so it needs none.',
      body: { locationId: '{{locationId}}', ttl: 600 },
      tests: [
        ...answers(201),
        ...check('is for that location, issued by the POS', [
          'const { claims } = pm.response.json();',
          "pm.expect([claims.sub, claims.iss]).to.eql([pm.variables.get('locationId'), pm.variables.get('posName')]);",
        ]),
        "pm.collectionVariables.set('mintedToken', pm.response.json().token);",
      ],
    }),
    control('Check a token', 'POST', '/_sandbox/tokens/check', {
      description: 'What the POS API would answer a call carrying this token, and each §5 rule passed, failed or not judged. Paste any token into the body.',
      body: { token: '{{mintedToken}}' },
      tests: [
        ...answers(200),
        ...check('authenticates the token the sandbox minted', ['pm.expect(pm.response.json().answer.authenticated).to.equal(true);']),
      ],
    }),
    control('Checklist runs', 'GET', '/_sandbox/checklist/runs', {
      description: 'The certification checklist runs this sandbox started (POST /_sandbox/checklist/runs, or the dashboard), newest first, each with its items and outcome.',
      tests: [...answers(200), ...check('is a list', ['pm.expect(pm.response.json()).to.be.an("array");'])],
    }),
    control('Reports', 'GET', '/_sandbox/reports', {
      description: "The checklist reports in the sandbox's report folder, newest first; each html opens its report.html.",
      tests: [...answers(200), ...check('is a list', ['pm.expect(pm.response.json()).to.be.an("array");'])],
    }),
    control('OpenAPI document', 'GET', '/_sandbox/openapi.json', {
      description: 'The OpenAPI 3.1 description of the POS API and the control API, to import into Insomnia or another tool.',
      tests: [...answers(200), ...check('is OpenAPI 3.1', ['pm.expect(pm.response.json().openapi).to.match(/^3\\.1\\./);'])],
    }),
  ];
}

export function orderControlRequests(examples: PostmanExamples): { list: PostmanRequestItem; create: PostmanRequestItem; one: PostmanRequestItem; resend: PostmanRequestItem } {
  const fixtureOrder = examples.decidedOrder;
  const keepFixtureOrder = [
    `pm.collectionVariables.set('orderId', ${literal(fixtureOrder.OrderId)});`,
    `pm.collectionVariables.set('orderExternalId', ${literal(fixtureOrder.ExternalId)});`,
    `pm.collectionVariables.set('orderLocationId', ${literal(fixtureOrder.LocationId)});`,
    `pm.collectionVariables.set('orderStatus', ${literal(fixtureOrder.Status)});`,
  ];
  const notResendable = resendProblem({ OrderId: '{{orderId}}', Status: 'ACCEPTED' })!.replace(' is ACCEPTED;', ' is {{orderStatus}};');
  return {
    list: control('Orders', 'GET', '/_sandbox/orders?location={{locationId}}', {
      description: 'The orders of the location, oldest first, each with the body sent, its deliveries and its status history.',
      tests: answers(200),
    }),
    create: control('Create an order', 'POST', '/_sandbox/orders?wait=true', {
      description: [
        'The service sends an order to the POS (§1, §3). The sandbox builds it from a template and POSTs it to the POS order URL it was started with (--pos-order-url), then answers once the delivery settled.',
        'Postman cannot receive the order, so a sandbox started without a POS order URL answers 400, and the next requests use a decided order of the fixtures. With a POS that answers the delivery with an ExternalId and no Status, "Send an order status" decides this order.',
      ].join('\n\n'),
      body: { template: examples.template, locationId: '{{locationId}}' },
      tests: [
        "if (pm.collectionVariables.get('sandboxPosOrderUrl')) {",
        ...[
          ...check('answers 201 with the order as its delivery ended', [expectStatus(201)]),
          'const order = pm.response.json();',
          '// Only an order the POS took has an ExternalId to send a status or a refund for.',
          'if (order.ExternalId) {',
          "  pm.collectionVariables.set('orderId', order.OrderId);",
          "  pm.collectionVariables.set('orderExternalId', order.ExternalId);",
          "  pm.collectionVariables.set('orderLocationId', order.LocationId);",
          "  pm.collectionVariables.set('orderStatus', order.Status);",
          '} else {',
          ...keepFixtureOrder.map((line) => `  ${line}`),
          '}',
        ].map((line) => `  ${line}`),
        '} else {',
        ...[...check('answers 400: the sandbox has no POS order URL to send it to', [expectStatus(400), errorBody('INVALID_REQUEST', NO_POS_ORDER_URL)]), ...keepFixtureOrder].map(
          (line) => `  ${line}`,
        ),
        '}',
      ],
    }),
    one: control('One order', 'GET', '/_sandbox/orders/{{orderId}}', {
      description: 'The order the status call named, with its status history.',
      tests: [
        ...check('answers 200 with that order', [expectStatus(200), "pm.expect(pm.response.json().OrderId).to.equal(pm.variables.get('orderId'));"]),
        "pm.collectionVariables.set('orderStatus', pm.response.json().Status);",
      ],
    }),
    resend: control('Resend an order', 'POST', '/_sandbox/orders/{{orderId}}/resend?wait=true', {
      description: '§3: a rejected order can be resent by hand; so can one whose delivery failed. Any other answers 409 INVALID_STATE, as the ACCEPTED order here does.',
      tests: [
        "if (['REJECTED', 'DELIVERY_FAILED'].includes(pm.collectionVariables.get('orderStatus'))) {",
        ...answers(200, 'with the order as its new delivery ended').map((line) => `  ${line}`),
        '} else {',
        ...check('answers 409 INVALID_STATE: only a REJECTED or DELIVERY_FAILED order is resent', [expectStatus(409), errorBody('INVALID_STATE', notResendable)]).map(
          (line) => `  ${line}`,
        ),
        '}',
      ],
    }),
  };
}

export function journalRequests(): PostmanRequestItem[] {
  return [
    control('Refunds', 'GET', '/_sandbox/refunds?externalId={{refundExternalId}}', {
      description: 'What became of the refund sent above: PENDING for a second, then PROCESSED or FAILED with a reason. The POS never hears it (§1, §4.1).',
      tests: [...answers(200), ...check('lists the refund sent above', ["pm.expect(pm.response.json().map((r) => r.externalId)).to.include(pm.variables.get('refundExternalId'));"])],
    }),
    control('Journal', 'GET', '/_sandbox/journal?path=/order/refund&limit=5', {
      description: 'The last five refund calls, newest first, with headers, body, the decoded token (never its signature), the answer and the findings.',
      tests: [...answers(200), ...check('starts with the refund sent above', ["pm.expect(pm.response.json()[0].id).to.equal(pm.variables.get('refundJournalId'));"])],
    }),
    control('Journal entry', 'GET', '/_sandbox/journal/{{refundJournalId}}', {
      description: 'One entry: the refund sent above, named by the x-sandbox-journal-id header of its answer.',
      tests: [
        ...answers(200),
        ...check('shows the refund answered 200 with no finding', ['const entry = pm.response.json();', 'pm.expect([entry.response.status, entry.findings]).to.eql([200, []]);']),
      ],
    }),
  ];
}

export function faultRequests(): PostmanRequestItem[] {
  return [
    control('Add a fault rule', 'POST', '/_sandbox/faults', {
      description: 'The next refund answers 503 SERVICE_UNAVAILABLE: does your POS retry with backoff? "Delete the fault rule" removes it if no refund used it up.',
      body: {
        description: 'Added from Postman: the next refund answers 503',
        match: { direction: 'inbound', path: '/order/refund' },
        action: { kind: 'status', status: 503 },
        times: 1,
      },
      tests: [...answers(201), "pm.collectionVariables.set('faultId', pm.response.json().id);"],
    }),
    control('Fault rules', 'GET', '/_sandbox/faults', {
      description: 'The rules in force, in the order they are tried, each with what it has seen, fired and has left.',
      tests: [...answers(200), ...check('lists the rule added above', ["pm.expect(pm.response.json().map((rule) => rule.id)).to.include(pm.variables.get('faultId'));"])],
    }),
    control('Delete the fault rule', 'DELETE', '/_sandbox/faults/{{faultId}}', {
      description: 'Removes one rule; DELETE /_sandbox/faults removes them all.',
      tests: [...answers(200), ...check('removed the rule added above', ["pm.expect(pm.response.json().id).to.equal(pm.variables.get('faultId'));"])],
    }),
  ];
}
