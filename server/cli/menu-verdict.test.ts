import { describe, expect, it } from '@jest/globals';
import { loadMenuUpdateSchemas } from '../menus/menu-update-schemas.js';
import { fixtures } from '../test/test-identity.js';
import { parseJsonBody } from '../http/json-text.js';
import { formatVerdict, menuVerdict as verdictOf } from './menu-verdict.js';

const menuVerdict = (file: string, text: string, location: string | undefined, strict: boolean, ctx: typeof context) =>
  verdictOf(file, parseJsonBody('application/json', text), location, strict, ctx);

const context = { validators: loadMenuUpdateSchemas(), locations: fixtures.locations, menuOf: (id: string) => fixtures.menus[id] };
const formA = (LocationId: string, Price = 1450) =>
  JSON.stringify({ LocationId, Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price }] }] });

describe('menuVerdict', () => {
  it('takes form A’s LocationId as the header when no location is given', () => {
    expect(menuVerdict('f.json', formA('loc-std-001'), undefined, false, context)).toEqual({
      file: 'f.json',
      valid: true,
      status: 200,
      form: 'A',
      locationId: 'loc-std-001',
      findings: [],
      changes: [{ itemId: 'itm-carbonara', field: 'Price', serviceType: 'Takeout', from: 1390, to: 1450 }],
    });
  });

  it('names an unknown LocationId as the server would when the header carries it', () => {
    const verdict = menuVerdict('f.json', formA('loc-nowhere'), undefined, false, context);
    expect(verdict.body?.errors).toEqual([
      { Code: 'VALIDATION_ERROR', Message: "header x-service-locationid: location ID 'loc-nowhere' is unknown; known locations: loc-std-001, loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001" },
    ]);
  });

  it('leaves out the header-required message when there is no header to send, and keeps the rest', () => {
    const verdict = menuVerdict('f.json', '[1]', undefined, false, context);
    expect(verdict).toEqual({
      file: 'f.json',
      valid: false,
      status: 400,
      body: { errors: [{ Code: 'VALIDATION_ERROR', Message: 'body must be a JSON object, the menu update payload of §2.2, got array [1]' }] },
      findings: [],
      changes: [],
    });
  });

  it('rejects on findings under strict, with nothing to change', () => {
    const verdict = menuVerdict('f.json', formA('loc-std-001', 139_000), undefined, true, context);
    expect(verdict).toMatchObject({ valid: false, status: 400, changes: [], locationId: 'loc-std-001' });
    expect(verdict.findings.map((f) => f.code)).toEqual(['PRICE_UNIT_SUSPECT']);
  });
});

describe('formatVerdict', () => {
  it('says when nothing would change', () => {
    const text = formatVerdict(menuVerdict('f.json', formA('loc-std-001', 1390), undefined, false, context));
    expect(text).toBe(
      [
        'f.json: valid form A update for location loc-std-001; PUT /menu would answer 200',
        '  changes: none (every listed name and price is already on the menu)',
        '  findings: none',
        '',
      ].join('\n'),
    );
  });
});
