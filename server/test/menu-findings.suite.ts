/** Menu findings over HTTP: accepted with x-sandbox-findings, rejected under --strict with nothing applied. */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { LOCATION, menuEnvelope, putMenu, testSandbox } from './helpers.js';

const item = (Id: string, Price: number, extra: Record<string, unknown> = {}) => ({ Id, Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price }], ...extra });
const carbonara = (Price: number, Type = 'Item') => ({ LocationId: LOCATION, Items: [item('itm-carbonara', Price, { Type })] });

async function findingsOf(body: unknown): Promise<{ status: number; header: string; codes: string[]; changes: string }> {
  const sandbox = await testSandbox();
  const response = await putMenu(sandbox.app, body);
  const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body as { findings: Array<{ code: string }> };
  return { status: response.status, header: response.headers['x-sandbox-findings']!, codes: entry.findings.map((f) => f.code), changes: response.headers['x-sandbox-menu-changes']! };
}

describe('menu findings', () => {
  it.each([
    ['a Type other than Item', carbonara(1450, 'Dish'), ['UNDOCUMENTED_VALUE']],
    ['a ServiceType other than Takeout', { LocationId: LOCATION, Items: [{ ...item('itm-carbonara', 1450), Prices: [{ ServiceType: 'Delivery', Price: 1590 }] }] }, ['UNDOCUMENTED_VALUE']],
    ['a Service other than Pickup', { Items: [{ ...item('itm-carbonara', 1450), Prices: [{ Service: 'Takeout', Price: 1590 }] }] }, ['UNDOCUMENTED_VALUE']],
    ['a price exactly 100× the current one', carbonara(139_000), ['PRICE_UNIT_SUSPECT']],
    [
      'a full menu where one item changed',
      { LocationId: LOCATION, Items: [item('itm-margherita', 1150, { Name: 'Pizza Margherita' }), item('itm-carbonara', 1450), item('itm-tiramisu', 650, { Name: 'Tiramisu' }), item('itm-lemonade', 420, { Name: 'Homemade Lemonade 0.4 l' })] },
      ['FULL_MENU_UPDATE'],
    ],
  ])('accepts %s with a finding', async (_case, body, codes) => {
    const result = await findingsOf(body);
    expect(result).toMatchObject({ status: 200, header: String(codes.length), codes });
  });

  it('accepts a payload over 64 KiB with a finding', async () => {
    const result = await findingsOf(JSON.stringify(carbonara(1450)) + ' '.repeat(64 * 1024));
    expect(result).toMatchObject({ status: 200, header: '1', codes: ['MENU_PAYLOAD_OVER_64KIB'], changes: '1' });
  });

  it('rejects a finding under --strict with VALIDATION_ERROR, and applies nothing', async () => {
    const sandbox = await testSandbox({ strict: true });
    const before = JSON.stringify(sandbox.store.menu(LOCATION));
    const response = await putMenu(sandbox.app, carbonara(13_900 * 10, 'Dish'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      menuEnvelope([
        'strict mode: UNDOCUMENTED_VALUE: Type "Dish" at Items[0].Type: the interface lists only "Item" for Type; the real service may reject other values (§2.2)',
        'strict mode: PRICE_UNIT_SUSPECT: Items[0].Prices[0].Price is 139000, exactly 100× the current 1390; prices are minor units (1150 is 11.50): was it multiplied by 100 twice? (§2.2)',
      ]),
    );
    expect(JSON.stringify(sandbox.store.menu(LOCATION))).toBe(before);
  });

  it('answers 401 under --strict when the token draws a finding, in the menu envelope', async () => {
    const sandbox = await testSandbox({ strict: true });
    const response = await putMenu(sandbox.app, { ...carbonara(1450), LocationId: 'loc-kiosk-001', Items: [item('itm-coffee', 300, { Name: 'Coffee' })] }, {
      headers: { 'x-service-locationid': 'loc-kiosk-001' },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      menuEnvelope(
        ["strict mode: SUB_LOCATION_MISMATCH: token sub is 'loc-std-001' but header x-service-locationid is 'loc-kiosk-001'; sub must be the location identifier (§5)"],
        'UNAUTHORIZED',
      ),
    );
  });
});
