/** PUT /menu (§2.2, §4.2) against the real app: forms A and B, every failure, atomic updates. */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { LOCATION, menuEnvelope, posToken, putMenu, testApp, testSandbox } from './helpers.js';

const LOCATION_REQUIRED = 'header x-service-locationid is required: the identifier of the merchant location (§4)';
const KNOWN = 'known locations: loc-std-001, loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001';
const NOT_A_FIELD = 'is not a field of the menu update: only prices and names can be changed (§4.2 rule 1)';
const PRICE_HINT = 'prices are whole numbers of minor units (1150 for 11.50)';

/** Form A, one item of loc-std-001; `item` and `price` override fields (undefined removes one). */
function formA(item: Record<string, unknown> = {}, price: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    LocationId: LOCATION,
    Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450, ...price }], ...item }],
    ...top,
  };
}

function formB(item: Record<string, unknown> = {}, price: Record<string, unknown> = {}): Record<string, unknown> {
  return { Items: [{ Id: 'itm-tiramisu', Name: 'Tiramisu', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 690, ...price }], ...item }] };
}

const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('PUT /menu (§4.2)', () => {
  it.each(['/menu', '/v2/menu', '/v1/pos/openapi/menu'])('applies a form A update at %s: 200, no body, the new price stored', async (path) => {
    const sandbox = await testSandbox();
    const response = await putMenu(sandbox.app, formA(), { path });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers['x-sandbox-findings']).toBe('0');
    expect(response.headers['x-sandbox-menu-changes']).toBe('1');
    const menu = (await request(sandbox.app).get(`/_sandbox/locations/${LOCATION}/menu`)).body;
    expect(menu.Items[1]).toEqual({ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1450 }] });
  });

  it('applies a form B update: location from the header, Service Pickup is the Takeout price', async () => {
    const sandbox = await testSandbox();
    const response = await putMenu(sandbox.app, formB({ Name: 'Tiramisù' }));
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-menu-changes']).toBe('2');
    expect(sandbox.store.menu(LOCATION)?.Items[2]).toEqual({ Id: 'itm-tiramisu', Name: 'Tiramisù', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 690 }] });
  });

  it('leaves every item it does not list as it was (§4.2 rule 2)', async () => {
    const sandbox = await testSandbox();
    const before = structuredClone(sandbox.store.menu(LOCATION)!);
    await putMenu(sandbox.app, formA());
    const after = sandbox.store.menu(LOCATION)!;
    expect(after.Items.filter((item) => item.Id !== 'itm-carbonara')).toEqual(before.Items.filter((item) => item.Id !== 'itm-carbonara'));
    expect(after.Currency).toBe(before.Currency);
    for (const other of ['loc-hub-001-burgers', 'loc-hub-001-noodles', 'loc-kiosk-001']) {
      expect(sandbox.store.menu(other)).toEqual((await testSandbox()).store.menu(other));
    }
  });

  it('answers 200 with 0 changes when every name and price is already on the menu', async () => {
    const response = await putMenu(testApp(), formA({}, { Price: 1390 }));
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-menu-changes']).toBe('0');
  });

  it('keeps what changed in the journal entry', async () => {
    const sandbox = await testSandbox();
    const response = await putMenu(sandbox.app, formA({ Name: 'Carbonara' }));
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.menuUpdate).toEqual({
      form: 'A',
      locationId: LOCATION,
      changes: [
        { itemId: 'itm-carbonara', field: 'Name', from: 'Spaghetti Carbonara', to: 'Carbonara' },
        { itemId: 'itm-carbonara', field: 'Price', serviceType: 'Takeout', from: 1390, to: 1450 },
      ],
    });
  });

  const INVALID: Array<[string, unknown, Record<string, string | undefined>, string[]]> = [
    ['the location header is missing', formA(), { 'x-service-locationid': undefined }, [LOCATION_REQUIRED]],
    ['the location header is blank', formB(), { 'x-service-locationid': ' ' }, [LOCATION_REQUIRED]],
    [
      'the location is unknown (§7)',
      formB(),
      { 'x-service-locationid': 'loc-nowhere' },
      [`header x-service-locationid: location ID 'loc-nowhere' is unknown; ${KNOWN}`],
    ],
    [
      'the location is a hub, not a brand location',
      formB(),
      { 'x-service-locationid': 'hub-001' },
      ["header x-service-locationid: location ID 'hub-001' is unknown: 'hub-001' is a hub; send one update per brand location (loc-hub-001-burgers, loc-hub-001-noodles)"],
    ],
    [
      'LocationId is not the header',
      formA({}, {}, { LocationId: 'loc-kiosk-001' }),
      {},
      ["LocationId is 'loc-kiosk-001' but header x-service-locationid is 'loc-std-001'; in form A both name the same location (§2.2, §4.2)"],
    ],
    [
      'LocationId is not the header and unknown',
      formA({}, {}, { LocationId: 'loc-STD-001 ' }),
      {},
      [
        "LocationId is 'loc-STD-001 ' but header x-service-locationid is 'loc-std-001'; in form A both name the same location (§2.2, §4.2)",
        "LocationId: location ID 'loc-STD-001 ' is unknown; did you mean 'loc-std-001'?",
      ],
    ],
    ['Items is missing', { LocationId: LOCATION }, {}, ['Items is required']],
    ['Items is empty', { LocationId: LOCATION, Items: [] }, {}, ['Items must not be empty']],
    ['Items is not an array', { LocationId: LOCATION, Items: { Id: 'itm-carbonara' } }, {}, ['Items must be an array, got object {"Id":"itm-carbonara"}']],
    ['an item has no Name', formA({ Name: undefined }), {}, ['Items[0].Name is required']],
    ['an item has no Type and no Prices', formA({ Type: undefined, Prices: undefined }), {}, ['Items[0].Type is required', 'Items[0].Prices is required']],
    ['a Name is a number', formA({ Name: 42 }), {}, ['Items[0].Name must be a string, got number 42']],
    ['a Name is blank', formA({ Name: '  ' }), {}, ['Items[0].Name must not be blank']],
    ['an Id is empty', formA({ Id: '' }), {}, ['Items[0].Id must not be empty']],
    ['a price is missing', formA({}, { Price: undefined }), {}, ['Items[0].Prices[0].Price is required']],
    ['a price is a string', formA({}, { Price: '14.50' }), {}, [`Items[0].Prices[0].Price must be a whole number, got string "14.50"; ${PRICE_HINT}`]],
    ['a price is not a whole number', formA({}, { Price: 14.5 }), {}, [`Items[0].Prices[0].Price must be a whole number, got number 14.5; ${PRICE_HINT}`]],
    ['a price is negative', formA({}, { Price: -100 }), {}, [`Items[0].Prices[0].Price must be 0 or more, got number -100; ${PRICE_HINT}`]],
    ['ServiceType is missing in form A', formA({}, { ServiceType: undefined }), {}, ['Items[0].Prices[0].ServiceType is required']],
    [
      'an item Id is not on the menu (§4.2 rule 3)',
      formA({ Id: 'itm-calzone' }),
      {},
      ["Items[0].Id 'itm-calzone' is not on the menu of location 'loc-std-001' (§4.2 rule 3: check item IDs before sending)"],
    ],
    [
      "an item Id is on another location's menu",
      formA({ Id: 'itm-fries' }),
      {},
      ["Items[0].Id 'itm-fries' is not on the menu of location 'loc-std-001' (§4.2 rule 3: check item IDs before sending); it is on the menu of location 'loc-hub-001-burgers'"],
    ],
    [
      'an item Id is a variation',
      formA({ Id: 'var-margherita-40' }),
      {},
      ["Items[0].Id 'var-margherita-40' is not on the menu of location 'loc-std-001' (§4.2 rule 3: check item IDs before sending); it is a variation of 'itm-margherita', and only items can be updated (§2.2)"],
    ],
    ['an item has a field other than price and name', formA({ Description: 'al dente' }), {}, [`Items[0].Description ${NOT_A_FIELD}`]],
    ['an item changes its variations', formA({ Variations: [] }), {}, [`Items[0].Variations ${NOT_A_FIELD}`]],
    ['the payload carries a currency', formA({}, {}, { Currency: 'EUR' }), {}, [`Currency ${NOT_A_FIELD}`]],
    ['a price carries a currency', formA({}, { Currency: 'EUR' }), {}, [`Items[0].Prices[0].Currency ${NOT_A_FIELD}`]],
    [
      'form A prices carry Service (mixed forms)',
      formA({}, { ServiceType: undefined, Service: 'Pickup' }),
      {},
      ['Items[0].Prices[0].Service is a form B field, but the payload has LocationId, so it is form A, whose prices carry ServiceType; do not mix the two forms (§2.2)'],
    ],
    [
      'form B prices carry ServiceType (mixed forms)',
      formB({}, { Service: undefined, ServiceType: 'Takeout' }),
      {},
      ['Items[0].Prices[0].ServiceType is a form A field, but the payload has no LocationId, so it is form B, whose prices carry Service; do not mix the two forms, or add LocationId to send form A (§2.2)'],
    ],
    [
      'an item is listed twice',
      { LocationId: LOCATION, Items: [formA().Items, formA().Items].flat() },
      {},
      ["Items[1].Id 'itm-carbonara' is listed twice (first at Items[0]); list each item once"],
    ],
    [
      'a service type is priced twice',
      formB({ Prices: [{ Service: 'Pickup', Price: 690 }, { Service: 'Takeout', Price: 700 }] }),
      {},
      ['Items[0].Prices[1] sets the Takeout price again (first at Items[0].Prices[0]); give one price per service type'],
    ],
    ['the body is not JSON', '{"Items": [', {}, ['body is not valid JSON: Unexpected end of JSON input']],
    ['the body is an array', '[]', {}, ['body must be a JSON object, the menu update payload of §2.2, got array []']],
    ['the body is sent as text/plain', JSON.stringify(formA()), { 'Content-Type': 'text/plain' }, ["Content-Type must be application/json (§4), got 'text/plain'"]],
    [
      'the header, the body and an item are all wrong: every problem is listed',
      formA({ Id: 'itm-calzone', Extra: true }, { Price: 9.99 }, { LocationId: 'loc-kiosk-001' }),
      { 'x-service-locationid': undefined },
      [
        LOCATION_REQUIRED,
        `Items[0].Extra ${NOT_A_FIELD}`,
        `Items[0].Prices[0].Price must be a whole number, got number 9.99; ${PRICE_HINT}`,
        "Items[0].Id 'itm-calzone' is not on the menu of location 'loc-kiosk-001' (§4.2 rule 3: check item IDs before sending)",
      ],
    ],
  ];

  it.each(INVALID)('answers 400 VALIDATION_ERROR and applies nothing when %s', async (_case, body, headers, messages) => {
    const sandbox = await testSandbox();
    const before = strip(sandbox.store.menu(LOCATION));
    const response = await putMenu(sandbox.app, typeof body === 'string' ? body : strip(body), { headers });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(menuEnvelope(messages));
    expect(strip(sandbox.store.menu(LOCATION))).toEqual(before);
  });

  it('applies nothing when one item of several is wrong: updates are atomic', async () => {
    const sandbox = await testSandbox();
    const before = strip(sandbox.store.menu(LOCATION));
    const body = {
      LocationId: LOCATION,
      Items: [
        { Id: 'itm-margherita', Name: 'Margherita', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1200 }] },
        { Id: 'itm-tiramisu', Name: 'Tiramisu', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 6.9 }] },
      ],
    };
    const response = await putMenu(sandbox.app, body);
    expect(response.body).toEqual(menuEnvelope([`Items[1].Prices[0].Price must be a whole number, got number 6.9; ${PRICE_HINT}`]));
    expect(strip(sandbox.store.menu(LOCATION))).toEqual(before);
  });

  it('answers 401 UNAUTHORIZED in the capitalized menu envelope', async () => {
    const response = await putMenu(testApp(), formA(), { headers: { Authorization: `Bearer ${posToken({ aud: 'someone-else' })}` } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      menuEnvelope(["token aud is 'someone-else' but must be 'io.service.pos.brokers.openapi' for POS → service calls (§5)"], 'UNAUTHORIZED'),
    );
  });

  it('answers 405 with Allow: PUT for another method on /menu', async () => {
    const response = await request(await testApp()).post('/v2/menu');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('PUT');
    expect(response.body).toEqual(menuEnvelope(['POST is not allowed on /v2/menu; use PUT'], 'METHOD_NOT_ALLOWED'));
  });

  it('answers 413 PAYLOAD_TOO_LARGE in the menu envelope over 1 MiB', async () => {
    const response = await putMenu(testApp(), JSON.stringify({ LocationId: LOCATION, Items: [], pad: 'x'.repeat(1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.body.errors[0].Code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 410 for the retired v1 menu path, naming the v2 one', async () => {
    const response = await request(await testApp()).put('/v1/pos/integration/menu').send({});
    expect(response.status).toBe(410);
    expect(response.body.errors[0].Code).toBe('ENDPOINT_RETIRED');
    expect(response.body.errors[0].Message).toContain('PUT /v2/menu');
  });
});
