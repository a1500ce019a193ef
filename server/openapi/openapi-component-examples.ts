/** The examples of the OpenAPI document's component schemas, each a value the sandbox really takes or answers. */
import type { SandboxOrder } from '../orders/sandbox-order-types.js';
import { LAPTOP_QUOTAS } from '../hosted/quotas.js';

/** The payloads the examples are taken from (read by the caller: this module does no I/O). */
export interface ExamplePayloads {
  menuFormA: Record<string, unknown> & { Items: Array<Record<string, unknown> & { Prices: object[] }> };
  menuFormB: Record<string, unknown> & { Items: Array<Record<string, unknown> & { Prices: object[] }> };
  /** An order built from the standard template (OrderId ord-std-0004). */
  order: SandboxOrder;
}

export const AT = '2026-11-21T10:00:00.000Z';
const LATER = '2026-11-21T10:00:01.000Z';
export const REQUEST_ID = '2a19cd5e-a120-4559-bb04-9e30822af539';
export const orderError = (code: string, message: string) => ({ errors: [{ code, message }] });
export const menuError = (Code: string, Message: string) => ({ errors: [{ Code, Message }] });

const FAULT_RULE = {
  id: 'refund-outage',
  description: 'The refund endpoint answers 503 three times, then works again',
  match: { direction: 'inbound', path: '/order/refund' },
  action: { kind: 'status', status: 503 },
  times: 3,
};

export const REFUND = {
  id: 'rf-791c1aa6-9a27-495d-a82e-3b4fea8fbfc0',
  externalId: 'POS-STD-1001',
  locationId: 'loc-std-001',
  requestId: REQUEST_ID,
  journalId: 'j-000001',
  status: 'PROCESSED',
  acceptedAt: AT,
  dueAt: LATER,
  processedAt: LATER,
};

const JOURNAL_ENTRY = {
  id: 'j-000001',
  requestId: REQUEST_ID,
  time: AT,
  direction: 'inbound',
  method: 'POST',
  path: '/v2/order/refund',
  locationId: 'loc-std-001',
  partner: 'demo-pos',
  token: {
    header: { alg: 'HS256', typ: 'JWT' },
    claims: { sub: 'loc-std-001', jti: '02c1d2e2-554b-4a7a-acb5-26f53788b8b8', nbf: 1795255200, exp: 1795258800, iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' },
    sha256: '80459d6e4131555084024596d29130161f55134090fcac99a41bd23087be28f7',
  },
  request: {
    headers: { 'x-service-locationid': 'loc-std-001', authorization: 'Bearer [redacted sha256:80459d6e41315550]', 'x-api-version': '2', 'content-type': 'application/json' },
    body: { ExternalId: 'POS-STD-1001' },
  },
  response: { status: 200, headers: { 'x-sandbox-findings': '0', 'x-sandbox-refund-id': REFUND.id } },
  latencyMs: 3,
  findings: [],
};

const HEALTH = {
  status: 'ok',
  version: '0.1.0',
  startedAt: AT,
  uptimeSeconds: 42,
  store: '.sandbox/db.json',
  storeKind: 'file',
  storeLatencyMs: 0.1,
  instanceId: 'sandbox-host-41235',
  delivery: { attempts: 3, attemptTimeoutMs: 10000, retryDelaysMs: [1000, 2000], posOrderUrl: 'http://127.0.0.1:4200/order' },
  events: { clients: 0, waitingBytes: 0, dropped: 0 },
  journal: { entries: 12, limit: 5000, bytes: 18432, byteLimit: 268435456 },
  quota: {
    // The laptop's defaults themselves: the example cannot drift from what a laptop answers.
    quotas: LAPTOP_QUOTAS,
    inUse: { deliveries: 0, heldRequests: 0 },
    refused: { requests: 0, eventStreams: 0, harExports: 0, checklistRuns: 0, heldRequests: 0, deliveries: 0 },
  },
};

/** Examples of the component schemas that do not come from a payload file. */
/** Orders made from a template, the common form of POST /_sandbox/orders. */
const FROM_TEMPLATE = [{ template: 'standard', locationId: 'loc-std-001' }, { template: 'kiosk', eatIn: false, pagerNumber: '17' }];

/** A hunt as `pos-sandbox stress` tells it, part way: one failure found and shrunk. */
const STRESS_VIEW = {
  mode: 'hunt',
  seed: 1234567,
  state: 'running',
  planned: 500,
  sent: 212,
  passed: 211,
  shrinkSends: 9,
  findings: [{ kind: '5xx', message: 'the POS answered 500 to try 1 (j-000431): the POS answered 500; it said {"code":"INTERNAL_ERROR","message":"modifier table overflow"}', items: 1 }],
  recent: [{ orderId: 'ord-7f3a9c', locationId: 'loc-kiosk-001', ok: true, decidedMs: 41, shrinking: false }],
};

export const CHECKLIST_RUN = {
  id: 'run-1',
  status: 'finished',
  startedAt: '2026-11-21T10:00:00.000Z',
  finishedAt: '2026-11-21T10:00:12.000Z',
  driver: { url: 'http://127.0.0.1:41234', referencePos: true, bugs: [] },
  capabilities: ['refund', 'hub', 'kiosk'],
  items: [
    { id: 'AUTH-01', title: 'Tokens are HS256, signed with the non-prod key', section: '§5 (1–3)', required: true, status: 'pass', message: 'every POS → service call was HS256, signed with the partner key' },
    { id: 'ORDER-02', title: 'An accepted order reaches ACCEPTED', section: '§3', required: true, status: 'pass' },
  ],
  outcome: { verdict: 'passed', counts: { pass: 2, fail: 0, warn: 0, blocked: 0, not_applicable: 0, skipped: 0, error: 0 }, reason: 'every required item in scope passed (2 required; optional items do not count)' },
  report: { id: '2026-11-21T10-00-00-000Z-1a2b3c', html: '/_sandbox/reports/2026-11-21T10-00-00-000Z-1a2b3c/report.html' },
};

/** A half-migrated POS: its key sent as a query parameter, then v1's CompanyProfileId header. */
const MIGRATION_REPORT = {
  calls: 3,
  steps: [
    { number: 1, step: 'update authentication', state: 'in progress', v1Calls: ['j-000001'], v1CallCount: 1, next: "a key or token was passed in the query parameter 'api_key'; v2 takes the token only in the Authorization header (Bearer <JWT>), never in the URL, where proxies and logs keep it (§5)" },
    { number: 2, step: 'adjust endpoints', state: 'done', v1Calls: [], v1CallCount: 0, next: 'nothing: no v1 habit of this step is left' },
    { number: 3, step: 'refactor payloads', state: 'in progress', v1Calls: ['j-000002'], v1CallCount: 1, next: "header x-service-locationid is required: the identifier of the merchant location (§4); header companyprofileid is v1's CompanyProfileId: v2 sends the location in x-service-locationid (§4; §9: LocationId replaces CompanyProfileId; step 3 of §9's migration, refactor payloads)" },
    { number: 4, step: 'handle status management', state: 'not yet exercised', v1Calls: [], v1CallCount: 0, next: 'decide an order the sandbox sent with POST /v2/order/status' },
    { number: 5, step: 'validate menu synchronization', state: 'not yet exercised', v1Calls: [], v1CallCount: 0, next: 'send a partial menu update (PUT /v2/menu) the sandbox accepts' },
    { number: 6, step: 'test in the sandbox', state: 'in progress', v1Calls: ['j-000001', 'j-000002'], v1CallCount: 2, next: 'finish step 1 above' },
    { number: 7, step: 'certify and go live', state: 'not yet exercised', v1Calls: [], v1CallCount: 0, next: 'run the checklist with --pos-version against your POS (pos-sandbox checklist, or certify in CI)' },
  ],
};

export function componentExamples(payloads: ExamplePayloads): Record<string, unknown[]> {
  const { menuFormA, menuFormB, order } = payloads;
  const item = order.Items[0]!;
  const record = {
    OrderId: order.OrderId,
    LocationId: order.LocationId,
    Template: 'standard',
    Status: 'AWAITING_STATUS',
    ExternalId: 'POS-7781',
    CreatedAt: order.CreatedAt,
    UpdatedAt: order.CreatedAt,
    PosOrderUrl: 'http://127.0.0.1:4200/order',
    Order: order,
    Deliveries: [{ dispatch: 1, attempt: 1, at: order.CreatedAt, requestId: order.RequestId, journalId: 'j-000002', status: 200, externalId: 'POS-7781' }],
    History: [
      { status: 'NEW', at: order.CreatedAt, by: 'dispatch' },
      { status: 'DISPATCHED', at: order.CreatedAt, by: 'dispatch' },
      { status: 'AWAITING_STATUS', at: order.CreatedAt, by: 'pos-reply' },
    ],
  };
  return {
    ChecklistRun: [CHECKLIST_RUN],
    StressRunView: [STRESS_VIEW],
    StressRun: [{ ...STRESS_VIEW, id: 'stress-1', startedAt: AT, updatedAt: AT }],
    MigrationReport: [MIGRATION_REPORT],
    RefundRequest: [{ ExternalId: 'POS-STD-1001' }],
    MenuUpdateFormA: [menuFormA],
    'MenuUpdateFormA.MenuItemFormA': [menuFormA.Items[0]],
    'MenuUpdateFormA.PriceFormA': [menuFormA.Items[0]!.Prices[0]],
    MenuUpdateFormB: [menuFormB],
    'MenuUpdateFormB.MenuItemFormB': [menuFormB.Items[0]],
    'MenuUpdateFormB.PriceFormB': [menuFormB.Items[0]!.Prices[0]],
    SandboxOrder: [order],
    'SandboxOrder.Id': [item.Id],
    'SandboxOrder.Money': [item.UnitPrice],
    'SandboxOrder.OrderItem': [item],
    'SandboxOrder.Variation': [{ Id: 'var-margherita-40', Name: '40 cm', Price: 350 }],
    'SandboxOrder.Modifier': [{ Id: 'mod-extra-mozzarella', Name: 'Extra mozzarella', Quantity: 1, Price: 150 }],
    'SandboxOrder.Fee': [{ Type: 'Delivery', Name: 'Delivery fee', Amount: 299 }],
    'SandboxOrder.Promotion': [{ Id: 'promo-pizza-10', Name: '10% off pizza', Amount: 330 }],
    'SandboxOrder.Tax': [{ Name: 'VAT 7%', Rate: 7, Amount: 241, Included: true }],
    'SandboxOrder.Payment': [{ Prepaid: true, Method: 'Card', Amount: 3689 }],
    OrderStatusRequest: [{ ExternalId: 'POS-7781', Status: 'ACCEPTED' }, { ExternalId: 'POS-7782', Status: 'REJECTED', Reason: 'Kitchen closed' }],
    NewOrder: FROM_TEMPLATE,
    NewOrderFromTemplate: FROM_TEMPLATE,
    NewOrderGiven: [{ order: Object.fromEntries(Object.entries(order).filter(([field]) => !['OrderId', 'RequestId', 'CreatedAt'].includes(field))), tries: 1 }],
    OrderRecord: [record],
    FaultRule: [FAULT_RULE],
    'FaultRule.FaultMatch': [FAULT_RULE.match],
    'FaultRule.FaultAction': [FAULT_RULE.action, { kind: 'delay', ms: 2500 }],
    FaultRuleInForce: [{ ...FAULT_RULE, source: 'api', addedAt: AT, seen: 1, fired: 1, left: 2, skipping: 0 }],
    MenuErrorEnvelope: [menuError('VALIDATION_ERROR', 'Items[0].Prices[0].Price must be 0 or more, got number -1; prices are whole numbers of minor units (1150 for 11.50)')],
    OrderErrorEnvelope: [orderError('INVALID_PAYLOAD', 'ExternalId must not be empty or blank')],
    Health: [HEALTH],
    QuotaView: [HEALTH.quota],
    Readiness: [{ ready: true, instanceId: 'sandbox-host-41235' }, { ready: true }],
    Refund: [REFUND],
    JournalEntry: [JOURNAL_ENTRY],
  };
}
