import { describe, expect, it } from '@jest/globals';
import { menuVerdict } from '../cli/menu-verdict.js';
import { parseJsonBody } from '../http/json-text.js';
import { loadMenuUpdateSchemas } from '../menus/menu-update-schemas.js';
import { fixtures, PARTNER } from '../test/test-identity.js';
import { buildPostmanExport } from './build-postman-export.js';
import { pickExamples, type PostmanExamples } from './pos-call-requests.js';
import { COLLECTION_SCHEMA, type PostmanRequestItem } from './postman-format.js';

const picked = pickExamples(fixtures, undefined);
if (!picked.ok) throw new Error(picked.problem);
const examples: PostmanExamples = picked.examples;
const input = { version: '9.9.9', sandboxUrl: 'http://127.0.0.1:4100', partner: PARTNER, examples };
const { collection, environment } = buildPostmanExport(input);
const requests: PostmanRequestItem[] = collection.item.flatMap((folder) => folder.item);
const byName = (name: string) => requests.find((item) => item.name === name)!;
const isControl = (item: PostmanRequestItem) => item.request.url.path[0] === '_sandbox';
const environmentValue = (key: string) => environment.values.find((value) => value.key === key)?.value;

describe('the Postman collection', () => {
  it('is a v2.1 collection with the bearer token of the pre-request script', () => {
    expect(collection.info).toMatchObject({ name: 'POS Sandbox', schema: COLLECTION_SCHEMA });
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{posToken}}', type: 'string' }] });
    expect(collection.event.map((event) => event.listen)).toEqual(['prerequest']);
  });

  it('has, in this order, every POS call and the control calls a session needs', () => {
    expect(requests.map((item) => `${item.request.method} ${item.request.url.raw.replace('{{baseUrl}}', '')}`)).toEqual([
      'GET /_sandbox/health',
      'POST /_sandbox/reset',
      'GET /_sandbox/partners',
      'GET /_sandbox/locations',
      'GET /_sandbox/locations/{{locationId}}/menu',
      'POST /_sandbox/tokens',
      'POST /_sandbox/tokens/check',
      'GET /_sandbox/checklist/runs',
      'GET /_sandbox/reports',
      'GET /_sandbox/openapi.json',
      'POST /v2/order/refund',
      'PUT /v2/menu',
      'PUT /v2/menu',
      'GET /_sandbox/orders?location={{locationId}}',
      'POST /_sandbox/orders?wait=true',
      'POST /v2/order/status',
      'GET /_sandbox/orders/{{orderId}}',
      'POST /_sandbox/orders/{{orderId}}/resend?wait=true',
      'GET /_sandbox/refunds?externalId={{refundExternalId}}',
      'GET /_sandbox/journal?path=/order/refund&limit=5',
      'GET /_sandbox/journal/{{refundJournalId}}',
      'POST /_sandbox/faults',
      'GET /_sandbox/faults',
      'DELETE /_sandbox/faults/{{faultId}}',
    ]);
  });

  it('gives every request a test script with at least one pm.test, and a description', () => {
    for (const item of requests) {
      const tests = item.event.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
      expect({ name: item.name, tested: tests.includes('pm.test(') && tests.includes('pm.response.code'), described: item.request.description.length > 20 }).toEqual({
        name: item.name,
        tested: true,
        described: true,
      });
    }
  });

  it('writes scripts that parse as JavaScript', () => {
    const scripts = [...collection.event, ...requests.flatMap((item) => item.event)].map((event) => event.script.exec.join('\n'));
    expect(scripts.length).toBe(requests.length + 2);
    for (const code of scripts) expect(() => new Function('pm', 'require', code)).not.toThrow();
  });

  it('sends the POS calls with the token and the §4 and §5 headers, and the control calls without a token', () => {
    const pos = requests.filter((item) => !isControl(item));
    expect(pos.map((item) => item.name)).toEqual([
      'Refund an order (POST /v2/order/refund)',
      'Update the menu, form A (PUT /v2/menu)',
      'Update the menu, form B (PUT /v2/menu)',
      'Send an order status (POST /v2/order/status)',
    ]);
    for (const item of pos) {
      expect(item.request.auth).toBeUndefined();
      expect(Object.fromEntries(item.request.header.map((header) => [header.key, header.value]))).toEqual({
        'Content-Type': 'application/json',
        'x-service-locationid': item.name.includes('status') ? '{{orderLocationId}}' : '{{locationId}}',
        'x-api-key': '{{apiKey}}',
        'x-api-version': '{{apiVersion}}',
      });
      expect(item.event.find((event) => event.listen === 'test')?.script.exec.join('\n')).toContain("headers.get('x-sandbox-findings')");
    }
    for (const item of requests.filter(isControl)) expect(item.request.auth).toEqual({ type: 'noauth' });
  });

  it('mints the token with the six claims of §5, aud the service, a lifetime within the hour', () => {
    const code = collection.event[0]!.script.exec.join('\n');
    for (const claim of ['sub:', 'jti:', 'nbf:', 'exp: now + 300', 'iss:', "aud: 'io.service.pos.brokers.openapi'"]) expect(code).toContain(claim);
    expect(code).toContain("encode({ alg: 'HS256', typ: 'JWT' })");
    expect(code).toContain("CryptoJS.HmacSHA256(signingInput, pm.variables.get('nonProdKey'))");
  });

  it('uses only variables the environment, the collection or a script defines', () => {
    const defined = new Set([...environment.values.map((value) => value.key), ...collection.variable.map((variable) => variable.key), 'posToken', '$guid']);
    const used = new Set([...JSON.stringify(collection).matchAll(/\{\{([^{}]+)\}\}/g)].map((match) => match[1]!));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
    expect([...used].sort()).toEqual(expect.arrayContaining(['apiKey', 'apiVersion', 'baseUrl', 'locationId', 'orderExternalId', 'refundExternalId']));
  });

  it('sends a new ExternalId with every refund, so a second send draws no DUPLICATE_REFUND', () => {
    const refund = byName('Refund an order (POST /v2/order/refund)');
    expect(JSON.parse(refund.request.body!.raw)).toEqual({ ExternalId: '{{refundExternalId}}' });
    expect(refund.event.find((event) => event.listen === 'prerequest')?.script.exec).toEqual([
      "pm.collectionVariables.set('refundExternalId', 'POSTMAN-' + pm.variables.replaceIn('{{$guid}}'));",
    ]);
  });

  it.each(['Update the menu, form A (PUT /v2/menu)', 'Update the menu, form B (PUT /v2/menu)'])('%s is an update the server applies with no finding', (name) => {
    const raw = byName(name).request.body!.raw.replaceAll('{{locationId}}', examples.location.id);
    const context = { validators: loadMenuUpdateSchemas(), locations: fixtures.locations, menuOf: (id: string) => fixtures.menus[id] };
    const verdict = menuVerdict(name, parseJsonBody('application/json', raw), examples.location.id, false, context);
    expect({ status: verdict.status, findings: verdict.findings, changes: verdict.changes.length }).toEqual({ status: 200, findings: [], changes: 1 });
  });

  it('starts the order variables at a decided order of the fixtures, and says the sandbox’s own 409 when it stays decided', () => {
    const variables = Object.fromEntries(collection.variable.map((variable) => [variable.key, variable.value]));
    expect(variables).toMatchObject({ orderId: 'ord-std-0001', orderExternalId: 'POS-STD-1001', orderLocationId: 'loc-std-001', orderStatus: 'ACCEPTED' });
    expect(byName('Send an order status (POST /v2/order/status)').event[0]!.script.exec.join('\n')).toContain(
      'order {{orderId}} cannot become ACCEPTED: it was already decided ({{orderStatus}}); a status is sent once per delivery.',
    );
    expect(byName('Resend an order').event[0]!.script.exec.join('\n')).toContain('order {{orderId}} is {{orderStatus}}; only a REJECTED or DELIVERY_FAILED order can be resent');
  });
});

describe('the Postman environment', () => {
  it('holds the address, the location, the partner and its key as a secret', () => {
    expect(environment).toMatchObject({ name: 'POS Sandbox', _postman_variable_scope: 'environment', _postman_exported_using: 'pos-sandbox 9.9.9' });
    expect(environment.values).toEqual([
      { key: 'baseUrl', value: 'http://127.0.0.1:4100', type: 'default', enabled: true },
      { key: 'locationId', value: 'loc-std-001', type: 'default', enabled: true },
      { key: 'posName', value: 'demo-pos', type: 'default', enabled: true },
      { key: 'nonProdKey', value: fixtures.partner.nonProdKey, type: 'secret', enabled: true },
      { key: 'apiKey', value: fixtures.partner.apiKey, type: 'default', enabled: true },
      { key: 'apiVersion', value: '2', type: 'default', enabled: true },
    ]);
  });

  it('keeps the key out of the collection, and holds no key but the one it was given', () => {
    const own = { name: 'acme-pos', nonProdKey: 'acme-own-nonprod-key-0001', apiKey: undefined };
    const exported = buildPostmanExport({ ...input, partner: own });
    const files = JSON.stringify(exported);
    expect(JSON.stringify(exported.collection)).not.toContain(own.nonProdKey);
    expect(files).not.toContain(fixtures.partner.nonProdKey);
    expect(files).not.toContain(fixtures.partner.apiKey);
    expect(exported.environment.values.filter((value) => value.type === 'secret')).toEqual([{ key: 'nonProdKey', value: own.nonProdKey, type: 'secret', enabled: true }]);
    expect(exported.environment.values.find((value) => value.key === 'apiKey')?.value).toBe('acme-pos-x-api-key');
    expect(JSON.stringify(collection)).not.toContain(fixtures.partner.nonProdKey);
    expect(environmentValue('posName')).toBe('demo-pos');
  });
});

describe('pickExamples', () => {
  it('picks the first standard location, two priced items of its menu and a decided order there', () => {
    expect(examples).toEqual({
      location: fixtures.locations[0],
      template: 'standard',
      menuItems: [
        { Id: 'itm-margherita', Name: 'Pizza Margherita', Price: 1150 },
        { Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Price: 1390 },
      ],
      decidedOrder: { OrderId: 'ord-std-0001', ExternalId: 'POS-STD-1001', LocationId: 'loc-std-001', Status: 'ACCEPTED' },
    });
  });

  it('takes another location with its own menu, template and orders', () => {
    const hub = pickExamples(fixtures, 'loc-hub-001-noodles');
    expect(hub.ok && { template: hub.examples.template, order: hub.examples.decidedOrder.LocationId, item: hub.examples.menuItems[0].Id.startsWith('itm-') }).toEqual({
      template: 'hub',
      order: 'loc-hub-001-noodles',
      item: true,
    });
  });

  it.each([
    ['an unknown --location', { ...fixtures }, 'loc-nowhere', "--location 'loc-nowhere' is not a fixture location (loc-std-001, loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001)"],
    [
      'no standard location',
      { ...fixtures, locations: fixtures.locations.filter((l) => l.kind !== 'standard') },
      undefined,
      'the fixtures have no standard location; choose one with --location (loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001)',
    ],
    ['a menu with no Takeout price', { ...fixtures, menus: {} }, undefined, "the menu of location 'loc-std-001' has no item with a Takeout price to update"],
    ['no template of the kind', { ...fixtures, templates: {} }, undefined, "the fixtures have no order template for standard locations like 'loc-std-001'"],
    ['no ACCEPTED order', { ...fixtures, orders: fixtures.orders.filter((o) => o.Status !== 'ACCEPTED') }, undefined, 'the fixtures have no ACCEPTED order with an ExternalId for the status call to name'],
  ])('says why with %s', (_case, data, location, problem) => {
    expect(pickExamples(data, location)).toEqual({ ok: false, problem });
  });
});
