/**
 * v1's habits (§9), each in the spellings v1 clients used, through every endpoint it can reach: the answer names what
 * v2 wants instead and the §, a refusal where v2 cannot understand the call, a finding where it can.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { cleanHeaders, LOCATION, postRefund, putMenu, testSandbox } from './helpers.js';

const FIELD_SPELLINGS = ['CompanyProfileId', 'companyProfileId', 'company_profile_id', 'COMPANY_PROFILE_ID'];
const HEADER_SPELLINGS = ['CompanyProfileId', 'company-profile-id', 'x-company-profile-id', 'Company_Profile_Id'];
const MOUNTS = ['', '/v2', '/v1/pos/openapi', '/v1/pos/integration'];
const STATE_SPELLINGS = ['UpdateOrderState', 'updateOrderState', 'update_order_state', 'update-order-state'];
const FORM_A = { LocationId: LOCATION, Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450 }] }] };
const INSTEAD = (name: string) => `${name} is v1's CompanyProfileId: v2 names the location LocationId (form A's body) and sends it in the x-service-locationid header on every call (§9: LocationId replaces CompanyProfileId; step 3 of §9's migration, refactor payloads)`;
const HEADER_INSTEAD = (name: string) => `header ${name.toLowerCase()} is v1's CompanyProfileId: v2 sends the location in x-service-locationid (§4; §9: LocationId replaces CompanyProfileId; step 3 of §9's migration, refactor payloads)`;

async function findingsOf(app: Awaited<ReturnType<typeof testSandbox>>['app'], journalId: string): Promise<Array<{ code: string; message: string }>> {
  return (await request(app).get(`/_sandbox/journal/${journalId}`)).body.findings as Array<{ code: string; message: string }>;
}

function statusCall(app: Awaited<ReturnType<typeof testSandbox>>['app'], body: object, headers: Record<string, string | undefined> = {}) {
  let call = request(app).post('/v2/order/status');
  for (const [name, value] of Object.entries({ ...cleanHeaders(), ...headers })) if (value !== undefined) call = call.set(name, value);
  return call.send(JSON.stringify(body));
}

describe('v1 CompanyProfileId as a body field', () => {
  it.each(FIELD_SPELLINGS)('refuses a menu update carrying %s, naming LocationId and §9, not "only prices and names"', async (name) => {
    const { app } = await testSandbox();
    const response = await putMenu(app, { ...FORM_A, [name]: 7 });
    expect([response.status, response.body]).toEqual([400, { errors: [{ Code: 'VALIDATION_ERROR', Message: INSTEAD(name) }] }]);
  });

  it.each(FIELD_SPELLINGS)('takes a refund carrying %s and says, as a finding, what v2 names instead', async (name) => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { body: JSON.stringify({ ExternalId: 'POS-STD-1001', [name]: 7 }) });
    expect(response.status).toBe(200);
    expect(await findingsOf(app, response.headers['x-sandbox-journal-id']!)).toContainEqual({ code: 'V1_HABIT', message: INSTEAD(name), section: '§9' });
  });

  it.each(FIELD_SPELLINGS)('says it of a status call carrying %s, even one refused for its ExternalId', async (name) => {
    const { app } = await testSandbox();
    const response = await statusCall(app, { ExternalId: 'NO-SUCH-ORDER', Status: 'ACCEPTED', [name]: 7 });
    expect(response.status).toBe(400);
    expect(await findingsOf(app, response.headers['x-sandbox-journal-id']!)).toContainEqual({ code: 'V1_HABIT', message: INSTEAD(name), section: '§9' });
  });
});

describe('v1 CompanyProfileId as a header', () => {
  it.each(HEADER_SPELLINGS)('refuses a refund with %s in place of x-service-locationid, naming both', async (name) => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { headers: { 'x-service-locationid': undefined, [name]: LOCATION } });
    expect([response.status, response.body]).toEqual([400, { errors: [{ code: 'INVALID_PAYLOAD', message: `header x-service-locationid is required: the identifier of the merchant location (§4); ${HEADER_INSTEAD(name)}` }] }]);
  });

  it.each(HEADER_SPELLINGS)('refuses a menu update and a status call with %s in its place, naming both', async (name) => {
    const { app } = await testSandbox();
    const menu = await putMenu(app, FORM_A, { headers: { 'x-service-locationid': undefined, [name]: LOCATION } });
    expect(menu.status).toBe(400);
    expect((menu.body as { errors: Array<{ Message: string }> }).errors.map((error) => error.Message)).toContain(`header x-service-locationid is required: the identifier of the merchant location (§4); ${HEADER_INSTEAD(name)}`);
    const status = await statusCall(app, { ExternalId: 'POS-STD-1001', Status: 'ACCEPTED' }, { 'x-service-locationid': undefined, [name]: LOCATION });
    expect((status.body as { errors: Array<{ message: string }> }).errors[0]!.message).toBe(`header x-service-locationid is required: the identifier of the merchant location (§4); ${HEADER_INSTEAD(name)}`);
  });

  it('takes a call that sends both, and says the v1 header is one to drop', async () => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { headers: { 'company-profile-id': LOCATION } });
    expect(response.status).toBe(200);
    expect(await findingsOf(app, response.headers['x-sandbox-journal-id']!)).toContainEqual({ code: 'V1_HABIT', message: `${HEADER_INSTEAD('company-profile-id')}; v2 reads the x-service-locationid this call also carries`, section: '§9' });
  });
});

describe("v1's UpdateOrderState", () => {
  it.each(MOUNTS.flatMap((mount) => STATE_SPELLINGS.map((spelling) => [`${mount}/order/${spelling}`] as const)))('answers %s with 410, naming POST /v2/order/status and §9', async (path) => {
    const { app } = await testSandbox();
    const response = await request(app).post(path).set(cleanHeaders()).send('{}');
    expect([response.status, response.body]).toEqual([
      410,
      { errors: [{ code: 'ENDPOINT_RETIRED', message: `POST ${path} is v1's UpdateOrderState: v2 decides an order with POST /v2/order/status {"ExternalId", "Status": "ACCEPTED"|"REJECTED", "Reason"?} (§3; §9: v1's UpdateOrderState is gone; step 4 of §9's migration, handle status management)` }] },
    ]);
  });

  it('answers it at the root of a mount too (/UpdateOrderState), and leaves other unknown paths their 404', async () => {
    const { app } = await testSandbox();
    expect((await request(app).post('/v2/UpdateOrderState').set(cleanHeaders()).send('{}')).status).toBe(410);
    expect((await request(app).post('/v2/order/UpdateOrder').set(cleanHeaders()).send('{}')).status).toBe(404);
  });

  it.each(['Action', 'action', 'Operation'])('says it of a status call with %s: UpdateOrderState, as a finding', async (field) => {
    const { app } = await testSandbox();
    const response = await statusCall(app, { ExternalId: 'NO-SUCH-ORDER', Status: 'ACCEPTED', [field]: 'UpdateOrderState' });
    const found = await findingsOf(app, response.headers['x-sandbox-journal-id']!);
    expect(found.filter((one) => one.code === 'V1_HABIT').map((one) => one.message)).toEqual([
      `${field} 'UpdateOrderState' is v1's UpdateOrderState: v2 decides an order with POST /v2/order/status {"ExternalId", "Status": "ACCEPTED"|"REJECTED", "Reason"?} (§3; §9: v1's UpdateOrderState is gone; step 4 of §9's migration, handle status management)`,
    ]);
    expect(found.some((one) => one.code === 'UNKNOWN_FIELD')).toBe(false);
  });
});

const REFUND_RESULT = "v1 waited for a refund's result; v2 has none to wait for: POST /v2/order/refund answers 200 once the refund is accepted, and its outcome is never sent to the POS (§1, §4.1; §9: the call flow is asynchronous; step 4 of §9's migration, handle status management)";

describe("v1's wait for a refund result", () => {
  it.each(['', '/v2', '/v1/pos/openapi'])('answers a GET of %s/order/refund 405, saying v2 has no result to wait for', async (mount) => {
    const { app } = await testSandbox();
    const response = await request(app).get(`${mount}/order/refund`).set(cleanHeaders());
    expect([response.status, response.headers.allow, response.body]).toEqual([405, 'POST', { errors: [{ code: 'METHOD_NOT_ALLOWED', message: `GET is not allowed on ${mount}/order/refund; use POST; ${REFUND_RESULT}` }] }]);
  });

  it.each(['/v2/order/refund/POS-STD-1001', '/v2/order/refund/status', '/order/Refund/POS-STD-1001/result', '/v1/pos/openapi/order/refund/x', '/v2/order/refunds/POS-STD-1001', '/v2/order/POS-STD-1001/refund', '/v2/refund/status', '/refunds'])('answers a poll of %s 404, saying the same', async (path) => {
    const { app } = await testSandbox();
    const response = await request(app).get(path).set(cleanHeaders());
    expect([response.status, response.body]).toEqual([404, { errors: [{ code: 'NOT_FOUND', message: `no endpoint at GET ${path}; the sandbox serves POST /order/refund, PUT /menu and POST /order/status under /, /v2 and /v1/pos/openapi; ${REFUND_RESULT}` }] }]);
  });

  it('says it of a poll under the retired v1 family too, and names step 2 there', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/v1/pos/integration/order/refund/POS-STD-1001').set(cleanHeaders());
    expect([response.status, response.body]).toEqual([410, { errors: [{ code: 'ENDPOINT_RETIRED', message: `/v1/pos/integration/order/refund/POS-STD-1001 is the retired v1 integration API (step 2 of §9's migration, adjust endpoints); ${REFUND_RESULT}` }] }]);
  });

  it('leaves other unknown paths as they were', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/v2/orders').set(cleanHeaders());
    expect(response.body.errors[0].message).toBe('no endpoint at GET /v2/orders; the sandbox serves POST /order/refund, PUT /menu and POST /order/status under /, /v2 and /v1/pos/openapi');
  });
});

/** The V1_HABIT findings of a call, by their messages. */
async function v1Findings(app: Awaited<ReturnType<typeof testSandbox>>['app'], response: request.Response): Promise<string[]> {
  return (await findingsOf(app, response.headers['x-sandbox-journal-id']!)).filter((found) => found.code === 'V1_HABIT').map((found) => found.message);
}

describe('v1 habits a hostile or half-migrated client hides elsewhere (found by an independent v1 client)', () => {
  it('notes CompanyProfileId and UpdateOrderState in the query, on every endpoint', async () => {
    const { app } = await testSandbox();
    const refund = await postRefund(app, { path: '/v2/order/refund?companyProfileId=loc-std-001' });
    expect(refund.status).toBe(200);
    expect(await v1Findings(app, refund)).toEqual([`query parameter companyProfileId is v1's CompanyProfileId: v2 sends the location in the x-service-locationid header, never in the URL (§4; §9: LocationId replaces CompanyProfileId; step 3 of §9's migration, refactor payloads)`]);
    const menu = await putMenu(app, FORM_A, { path: '/v2/menu?CompanyProfileId=loc-std-001' });
    expect(menu.status).toBe(200);
    expect(await v1Findings(app, menu)).toHaveLength(1);
    const status = await statusCall(app, { ExternalId: 'NO-SUCH-ORDER', Status: 'ACCEPTED' });
    const action = await request(app).post('/v2/order/status?action=UpdateOrderState').set(cleanHeaders()).send('{"ExternalId":"NO-SUCH-ORDER","Status":"ACCEPTED"}');
    expect([status.status, action.status]).toEqual([400, 400]);
    expect(await v1Findings(app, action)).toEqual([expect.stringMatching(/^query parameter action=UpdateOrderState is v1's UpdateOrderState: v2 decides an order with POST \/v2\/order\/status/)]);
  });

  it('answers a call to no endpoint with ?action=UpdateOrderState naming POST /v2/order/status', async () => {
    const { app } = await testSandbox();
    const response = await request(app).post('/v2/order?action=UpdateOrderState').set(cleanHeaders()).send('{}');
    expect(response.status).toBe(404);
    expect(response.body.errors[0].message).toMatch(/; query parameter action=UpdateOrderState is v1's UpdateOrderState: v2 decides an order with POST \/v2\/order\/status/);
  });

  it.each(['1', 'v1', '1.0', ' V1 '])('notes a version header of %s: it names v1', async (version) => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { headers: { 'x-api-version': version } });
    expect(response.status).toBe(200);
    expect(await v1Findings(app, response)).toEqual([`header x-api-version: ${version.trim()} names v1; this interface is Open API v2: send x-api-version: 2 (§5 migration notes; §9; step 1 of §9's migration, update authentication)`]);
  });

  it('takes a version header of 2, 2.0 or 10 as it is', async () => {
    const { app } = await testSandbox();
    for (const version of ['2', '2.0', '10']) expect(await v1Findings(app, await postRefund(app, { headers: { 'x-api-version': version } }))).toEqual([]);
  });

  it('notes UpdateOrderState as a header value, and a refund that asks to wait for its result', async () => {
    const { app } = await testSandbox();
    const action = await postRefund(app, { headers: { 'x-action': 'UpdateOrderState' } });
    expect(await v1Findings(app, action)).toEqual([expect.stringMatching(/^header x-action: UpdateOrderState is v1's UpdateOrderState/)]);
    const wait = await postRefund(app, { headers: { Prefer: 'wait=10' } });
    expect(await v1Findings(app, wait)).toEqual([expect.stringMatching(/^header prefer: wait=10 asks to wait: v1 waited for a refund's result; v2 has none to wait for/)]);
  });

  it('finds CompanyProfileId nested in a refund body, and still names the unknown field it is in', async () => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { body: JSON.stringify({ ExternalId: 'POS-STD-1001', Order: { Lines: [{ company_profile_id: 7 }] } }) });
    expect(response.status).toBe(200);
    const found = await findingsOf(app, response.headers['x-sandbox-journal-id']!);
    expect(found.map((one) => one.code)).toEqual(expect.arrayContaining(['V1_HABIT', 'UNKNOWN_FIELD']));
    expect(found.find((one) => one.code === 'V1_HABIT')!.message).toBe(INSTEAD('Order.Lines[0].company_profile_id'));
  });

  it('is not fooled into a long answer or a slow one by a body of many nested v1 fields', async () => {
    const { app } = await testSandbox();
    const deep = `{"ExternalId":"POS-STD-1001","deep":${'{"n":'.repeat(5000)}{"CompanyProfileId":1}${'}'.repeat(5000)}}`;
    const wide = JSON.stringify({ ExternalId: 'POS-STD-1001', ...Object.fromEntries([...Array(5000)].map((_, i) => [`x${i}`, { CompanyProfileId: i }])) });
    const flat = JSON.stringify({ ExternalId: 'POS-STD-1001', Order: Object.fromEntries([...Array(5000)].map((_, i) => [`CompanyProfileId${'_'.repeat(i % 3)}`.slice(0, 20) + i, i])) });
    for (const body of [deep, wide, flat]) {
      const response = await postRefund(app, { body });
      // Taken, or refused for its depth: never a 5xx, and never thousands of findings.
      expect(response.status).toBeLessThan(500);
      expect(Number(response.headers['x-sandbox-findings'] ?? 0)).toBeLessThanOrEqual(25);
    }
  });

  it('names the v1 fields of a body it refuses, beside what is missing', async () => {
    const { app } = await testSandbox();
    const wrapped = await statusCall(app, { UpdateOrderState: { ExternalId: 'POS-1', State: 'Accepted' } });
    expect(wrapped.status).toBe(400);
    expect(wrapped.body.errors.map((error: { message: string }) => error.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^UpdateOrderState is v1's UpdateOrderState: v2 decides an order with POST \/v2\/order\/status/)]));
    const noHeader = await postRefund(app, { headers: { 'x-service-locationid': undefined }, body: JSON.stringify({ ExternalId: 'POS-STD-1001', CompanyProfileId: LOCATION }) });
    expect([noHeader.status, noHeader.body.errors.map((error: { message: string }) => error.message)]).toEqual([400, ['header x-service-locationid is required: the identifier of the merchant location (§4)', INSTEAD('CompanyProfileId')]]);
  });

  it.each(['x-service-companyprofileid', 'X-CompanyProfileID'])('refuses %s in place of the location header, naming it', async (name) => {
    const { app } = await testSandbox();
    const response = await postRefund(app, { headers: { 'x-service-locationid': undefined, [name]: LOCATION } });
    expect([response.status, response.body.errors[0].message]).toEqual([400, `header x-service-locationid is required: the identifier of the merchant location (§4); ${HEADER_INSTEAD(name)}`]);
  });

  it.each(['/v2/order/UpdateOrderState.json', '/v2/order/Update%4FrderState', '/order/update_order_state.xml'])('answers %s 410 naming POST /v2/order/status', async (path) => {
    const { app } = await testSandbox();
    const response = await request(app).post(path).set(cleanHeaders()).send('{"ExternalId":"X"}');
    expect([response.status, response.body.errors[0].code]).toEqual([410, 'ENDPOINT_RETIRED']);
    expect(response.body.errors[0].message).toContain("is v1's UpdateOrderState: v2 decides an order with POST /v2/order/status");
  });

  it("answers v1's menu family in the menu envelope, naming PUT /v2/menu, and journals what was sent", async () => {
    const { app } = await testSandbox();
    const response = await request(app).put('/v1/pos/integration/menu/items/itm-1').set(cleanHeaders()).send('{"CompanyProfileId":"loc-std-001","Price":12}');
    expect([response.status, response.body]).toEqual([410, { errors: [{ Code: 'ENDPOINT_RETIRED', Message: "/v1/pos/integration/menu/items/itm-1 is the retired v1 integration API (step 2 of §9's migration, adjust endpoints); v2 has no menu endpoint below /menu: it updates items, by Id, with PUT /v2/menu (also under /v1/pos/openapi/menu), with a Bearer JWT (§4.2, §4.3, §5)" }] }]);
    const entry = (await request(app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.request.body).toEqual({ CompanyProfileId: 'loc-std-001', Price: 12 });
  });
});

describe('the retired v1 family', () => {
  it.each([
    ['post', '/v1/pos/integration/order/status', "v2 serves POST /v2/order/status (also under /v1/pos/openapi/order/status), with a Bearer JWT (§4.3, §5)"],
    ['get', '/v1/pos/integration/menu', 'v2 serves PUT /v2/menu (also under /v1/pos/openapi/menu), with a Bearer JWT (§4.3, §5)'],
    ['post', '/v1/pos/integration/orders', 'v2 has no endpoint at /orders; it serves POST /v2/order/refund, PUT /v2/menu, POST /v2/order/status (also under /v1/pos/openapi), with a Bearer JWT (§4, §4.3, §5)'],
  ] as const)('answers %s %s 410 naming what v2 serves instead, never a method v2 does not take', async (method, path, instead) => {
    const { app } = await testSandbox();
    const response = await request(app)[method](path).set(cleanHeaders());
    expect(response.status).toBe(410);
    const [error] = response.body.errors as Array<Record<string, string>>;
    expect(error!.message ?? error!.Message).toBe(`${path} is the retired v1 integration API (step 2 of §9's migration, adjust endpoints); ${instead}`);
  });
});

describe('GET /_sandbox/migration', () => {
  it('reads the journal oldest first: the first v1 call of a step is what to change next, the ids in order', async () => {
    const { app } = await testSandbox();
    const first = await postRefund(app, { headers: { 'x-service-locationid': undefined, 'Company-Profile-Id': LOCATION } });
    const second = await postRefund(app, { headers: { 'x-service-locationid': undefined, companyprofileid: LOCATION } });
    const response = await request(app).get('/_sandbox/migration');
    expect(response.status).toBe(200);
    expect(response.body.calls).toBe(2);
    expect(response.body.steps[2]).toEqual({
      number: 3,
      step: 'refactor payloads',
      state: 'in progress',
      v1Calls: [first.headers['x-sandbox-journal-id'], second.headers['x-sandbox-journal-id']],
      v1CallCount: 2,
      next: `header x-service-locationid is required: the identifier of the merchant location (§4); ${HEADER_INSTEAD('company-profile-id')}`,
    });
  });

  it('refuses a query parameter in the control envelope', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/migration?step=3');
    expect([response.status, response.body]).toEqual([400, { errors: [{ code: 'INVALID_REQUEST', message: expect.stringContaining('step') }] }]);
  });
});
