/** The requests check:prism sends through Prism, as data, in order: later steps use what earlier ones made. */

export const LOCATION = 'loc-std-001';

/** What a step answered that a later one needs. */
export interface Seen {
  journalId?: string;
}

export interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string | ((seen: Seen) => string);
  /** A POS call: a fresh token for the location and the §4/§5 headers, less those named in `omit`. */
  pos?: { badToken?: boolean; omit?: string[] };
  headers?: Record<string, string>;
  /** Sent as JSON (a control call gets Content-Type: application/json). */
  body?: unknown;
  /** Sent as it is, with this Content-Type. */
  raw?: { contentType: string; text: string };
  /** The status the sandbox must answer; another one means the run did not test what it says. */
  status: number;
  /** The request breaks the document on purpose: Prism's request-side violations are expected. */
  invalidOnPurpose?: boolean;
  /** A malformed fault's body is not JSON: Prism cannot parse it and answers its own 500 problem. */
  prismCannotParse?: boolean;
  remember?: (body: unknown, seen: Seen) => void;
}

const refund = (externalId: string) => ({ ExternalId: externalId });
const formA = { LocationId: LOCATION, Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450 }] }] };
const formB = { Items: [{ Id: 'itm-tiramisu', Name: 'Tiramisù', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 690 }] }] };

export const STEPS: Step[] = [
  { name: 'health', method: 'GET', path: '/_sandbox/health', status: 200 },
  { name: 'partners', method: 'GET', path: '/_sandbox/partners', status: 200 },
  { name: 'locations', method: 'GET', path: '/_sandbox/locations', status: 200 },
  { name: 'a location menu', method: 'GET', path: `/_sandbox/locations/${LOCATION}/menu`, status: 200 },
  { name: 'an unknown location menu', method: 'GET', path: '/_sandbox/locations/nowhere/menu', status: 404 },

  { name: 'valid refund (/v2)', method: 'POST', path: '/v2/order/refund', pos: {}, body: refund('POS-STD-1001'), status: 200 },
  { name: 'valid refund (/)', method: 'POST', path: '/order/refund', pos: {}, body: refund('POS-STD-1002'), status: 200 },
  { name: 'valid refund (/v1/pos/openapi)', method: 'POST', path: '/v1/pos/openapi/order/refund', pos: {}, body: refund('POS-STD-1003'), status: 200 },
  { name: 'refund, bad token', method: 'POST', path: '/v2/order/refund', pos: { badToken: true }, body: refund('POS-STD-1001'), status: 401, invalidOnPurpose: true },
  { name: 'refund, no location header', method: 'POST', path: '/v2/order/refund', pos: { omit: ['x-service-locationid'] }, body: refund('POS-STD-1001'), status: 400, invalidOnPurpose: true },
  { name: 'refund, blank ExternalId', method: 'POST', path: '/v2/order/refund', pos: {}, body: refund('   '), status: 400, invalidOnPurpose: true },

  { name: 'menu form A', method: 'PUT', path: '/v2/menu', pos: {}, body: formA, status: 200 },
  { name: 'menu form B', method: 'PUT', path: '/menu', pos: {}, body: formB, status: 200 },
  {
    name: 'menu, price not a whole number',
    method: 'PUT',
    path: '/v2/menu',
    pos: {},
    body: { ...formA, Items: [{ ...formA.Items[0], Prices: [{ ServiceType: 'Takeout', Price: 14.5 }] }] },
    status: 400,
    invalidOnPurpose: true,
  },
  { name: 'menu, an item not on the menu', method: 'PUT', path: '/v2/menu', pos: {}, body: { ...formA, Items: [{ ...formA.Items[0], Id: 'itm-nothing' }] }, status: 400 },

  {
    name: 'add fault rules',
    method: 'POST',
    path: '/_sandbox/faults',
    body: [
      { id: 'prism-outage', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 1 },
      { id: 'prism-spare', description: 'never fires: only to be removed', match: { path: '/nowhere' }, action: { kind: 'drop' } },
    ],
    status: 201,
  },
  { name: 'list fault rules', method: 'GET', path: '/_sandbox/faults', status: 200 },
  { name: 'one fault rule', method: 'GET', path: '/_sandbox/faults/prism-outage', status: 200 },
  { name: 'refund answered by the rule (503)', method: 'POST', path: '/v2/order/refund', pos: {}, body: refund('POS-STD-1001'), status: 503 },
  { name: 'refund, x-sandbox-fault: status=500', method: 'POST', path: '/v2/order/refund', pos: {}, headers: { 'x-sandbox-fault': 'status=500' }, body: refund('POS-STD-1001'), status: 500 },
  { name: 'menu, x-sandbox-fault: status=504', method: 'PUT', path: '/v2/menu', pos: {}, headers: { 'x-sandbox-fault': 'status=504' }, body: formA, status: 504 },
  { name: 'refund, x-sandbox-fault: rate-limit=2', method: 'POST', path: '/v2/order/refund', pos: {}, headers: { 'x-sandbox-fault': 'rate-limit=2' }, body: refund('POS-STD-1001'), status: 429 },
  {
    name: 'refund, x-sandbox-fault: malformed',
    method: 'POST',
    path: '/v2/order/refund',
    pos: {},
    headers: { 'x-sandbox-fault': 'malformed=502' },
    body: refund('POS-STD-1001'),
    status: 502,
    prismCannotParse: true,
  },
  { name: 'refund, unreadable x-sandbox-fault', method: 'POST', path: '/v2/order/refund', pos: {}, headers: { 'x-sandbox-fault': 'status=2OO' }, body: refund('POS-STD-1001'), status: 400 },
  { name: 'remove a fault rule', method: 'DELETE', path: '/_sandbox/faults/prism-spare', status: 200 },
  { name: 'remove a used-up fault rule', method: 'DELETE', path: '/_sandbox/faults/prism-outage', status: 404 },
  { name: 'remove every fault rule', method: 'DELETE', path: '/_sandbox/faults', status: 200 },

  { name: 'create an order, the POS answers without Status', method: 'POST', path: '/_sandbox/orders?wait=true', body: { template: 'standard', orderId: 'prism-await' }, status: 201 },
  { name: 'order status ACCEPTED', method: 'POST', path: '/v2/order/status', pos: {}, body: { ExternalId: 'POS-prism-await', Status: 'ACCEPTED' }, status: 200 },
  { name: 'order status again', method: 'POST', path: '/v2/order/status', pos: {}, body: { ExternalId: 'POS-prism-await', Status: 'REJECTED' }, status: 409 },
  { name: 'order status, unknown ExternalId', method: 'POST', path: '/order/status', pos: {}, body: { ExternalId: 'POS-nothing', Status: 'ACCEPTED' }, status: 400 },
  { name: 'create an order the POS rejects', method: 'POST', path: '/_sandbox/orders?wait=true', body: { template: 'standard', orderId: 'prism-reject' }, status: 201 },
  { name: 'create an order, id in use', method: 'POST', path: '/_sandbox/orders', body: { template: 'standard', orderId: 'prism-reject' }, status: 409 },
  { name: 'resend the rejected order', method: 'POST', path: '/_sandbox/orders/prism-reject/resend?wait=true', status: 200 },
  { name: 'resend an accepted order', method: 'POST', path: '/_sandbox/orders/prism-await/resend', status: 409 },
  { name: 'create an order, no wait', method: 'POST', path: '/_sandbox/orders', body: { template: 'standard', orderId: 'prism-later' }, status: 202 },
  { name: 'orders', method: 'GET', path: '/_sandbox/orders?limit=2', status: 200 },
  { name: 'one order', method: 'GET', path: '/_sandbox/orders/prism-reject', status: 200 },
  { name: 'orders, bad status filter', method: 'GET', path: '/_sandbox/orders?status=LOST', status: 400, invalidOnPurpose: true },

  { name: 'refunds', method: 'GET', path: '/_sandbox/refunds', status: 200 },
  {
    name: 'journal',
    method: 'GET',
    path: '/_sandbox/journal?limit=5',
    status: 200,
    remember: (body, seen) => {
      seen.journalId = (body as Array<{ id: string }>)[0]?.id;
    },
  },
  { name: 'journal entry', method: 'GET', path: (seen) => `/_sandbox/journal/${seen.journalId ?? 'j-none'}`, status: 200 },
  { name: 'journal entry, unknown id', method: 'GET', path: '/_sandbox/journal/j-999999', status: 404 },
  { name: 'journal.har', method: 'GET', path: '/_sandbox/journal.har', status: 200 },
  { name: 'journal.har, bad filter', method: 'GET', path: '/_sandbox/journal.har?status=teapot', status: 400 },
  { name: 'mint a token', method: 'POST', path: '/_sandbox/tokens', body: { locationId: LOCATION, ttl: 600 }, status: 201 },
  { name: 'mint a token, bad ttl', method: 'POST', path: '/_sandbox/tokens', body: { locationId: LOCATION, ttl: 0 }, status: 400, invalidOnPurpose: true },
  { name: 'ready fault scripts', method: 'GET', path: '/_sandbox/fault-scripts', status: 200 },
  { name: 'checklist runs', method: 'GET', path: '/_sandbox/checklist/runs', status: 200 },
  { name: 'start a checklist run, neither driver', method: 'POST', path: '/_sandbox/checklist/runs', body: { capabilities: ['refund'] }, status: 400, invalidOnPurpose: true },
  { name: 'one checklist run, unknown', method: 'GET', path: '/_sandbox/checklist/runs/run-404', status: 404, invalidOnPurpose: true },
  { name: 'reports', method: 'GET', path: '/_sandbox/reports', status: 200 },
  { name: 'check a token', method: 'POST', path: '/_sandbox/tokens/check', body: { token: 'not.a.jwt' }, status: 200 },
  { name: 'check a token, no token', method: 'POST', path: '/_sandbox/tokens/check', body: {}, status: 400, invalidOnPurpose: true },
  { name: 'openapi.json', method: 'GET', path: '/_sandbox/openapi.json', status: 200 },
  { name: 'reset, text/plain body', method: 'POST', path: '/_sandbox/reset', raw: { contentType: 'text/plain', text: 'reset please' }, status: 415, invalidOnPurpose: true },
  { name: 'reset', method: 'POST', path: '/_sandbox/reset', status: 200 },
  { name: 'clear the journal', method: 'DELETE', path: '/_sandbox/journal', status: 200 },
];
