/** `pos-sandbox validate-menu` as a user runs it: real processes, and the same messages as a real PUT /menu. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { cli, serve, stopServers } from './processes.js';

jest.setTimeout(60_000);
afterEach(stopServers);
const dir = mkdtempSync(join(tmpdir(), 'validate-menu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEMPLATES = join(PACKAGE_ROOT, 'menu-template');
const manifest = JSON.parse(readFileSync(join(TEMPLATES, 'templates.json'), 'utf8')) as Array<{ file: string; form: string; locationId: string }>;

function payloadFile(name: string, body: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

const BAD = {
  LocationId: 'loc-std-001',
  Items: [
    { Id: 'itm-carbonara', Name: 'Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 14.5 }], Description: 'al dente' },
    { Id: 'itm-fries', Name: 'Fries', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 390 }] },
  ],
};

describe('pos-sandbox validate-menu', () => {
  // Form A as a partner runs it, with no --location (LocationId stands in for the header); form B needs one.
  it.each(manifest.map((t) => [t.file, t] as const))('passes %s with exit code 0', async (file, template) => {
    const location = template.form === 'B' ? ['--location', template.locationId] : [];
    const result = await cli(['validate-menu', join(TEMPLATES, file), ...location]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`: valid form ${template.form} update for location ${template.locationId}; PUT /menu would answer 200`);
    expect(result.stdout).toContain('findings: none');
  });

  it('answers with the very messages a running sandbox answers with, and exit code 1', async () => {
    const file = payloadFile('bad.json', BAD);
    const offline = await cli(['validate-menu', file, '--json']);
    expect(offline.code).toBe(1);

    const { baseUrl } = await serve([]);
    const { stdout: token } = await cli(['token', '--location', 'loc-std-001']);
    const online = await fetch(`${baseUrl}/v2/menu`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token.trim()}`, 'x-service-locationid': 'loc-std-001', 'Content-Type': 'application/json' },
      body: JSON.stringify(BAD),
    });
    expect(online.status).toBe(400);
    const verdict = JSON.parse(offline.stdout) as { status: number; body: unknown };
    expect(verdict.status).toBe(400);
    expect(verdict.body).toEqual(await online.json());
    expect((verdict.body as { errors: unknown[] }).errors).toHaveLength(4);
  });

  it('prints the problems one per line for a person', async () => {
    const result = await cli(['validate-menu', payloadFile('bad-text.json', BAD)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        `${join(dir, 'bad-text.json')}: 4 problems in this form A update; PUT /menu would answer 400 VALIDATION_ERROR:`,
        '  - Items[0].Description is not a field of the menu update: only prices and names can be changed (§4.2 rule 1)',
        '  - Items[0].Prices[0].Price must be a whole number, got number 14.5; prices are whole numbers of minor units (1150 for 11.50)',
        '  - Items[1].Prices[0].Service is a form B field, but the payload has LocationId, so it is form A, whose prices carry ServiceType; do not mix the two forms (§2.2)',
        "  - Items[1].Id 'itm-fries' is not on the menu of location 'loc-std-001' (§4.2 rule 3: check item IDs before sending); it is on the menu of location 'loc-hub-001-burgers'",
        '',
      ].join('\n'),
    );
  });

  it('reads standard input, shows the changes and the findings, and fails on findings under --strict', async () => {
    const body = JSON.stringify({ Items: [{ Id: 'itm-fries', Name: 'Fries', Type: 'Side', Prices: [{ Service: 'Pickup', Price: 420 }] }] });
    const lenient = await cli(['validate-menu', '-', '--location', 'loc-hub-001-burgers'], {}, body);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toBe(
      [
        'stdin: valid form B update for location loc-hub-001-burgers; PUT /menu would answer 200',
        '  changes (1):',
        '    itm-fries Takeout price 390 → 420',
        '  findings (1):',
        '    UNDOCUMENTED_VALUE (§2.2): Type "Side" at Items[0].Type: the interface lists only "Item" for Type; the real service may reject other values',
        '',
      ].join('\n'),
    );
    const strict = await cli(['validate-menu', '-', '--location', 'loc-hub-001-burgers', '--strict'], {}, body);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('  - strict mode: UNDOCUMENTED_VALUE: Type "Side" at Items[0].Type');
  });

  it('checks against the location of --location, the header the POS will send', async () => {
    const result = await cli(['validate-menu', join(TEMPLATES, 'kiosk-update.json'), '--location', 'loc-std-001']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("  - LocationId is 'loc-kiosk-001' but header x-service-locationid is 'loc-std-001'; in form A both name the same location (§2.2, §4.2)");
  });

  it.each([
    [
      'a form B payload without --location',
      () => ['validate-menu', join(TEMPLATES, 'form-b-partial-update.json')],
      `pos-sandbox: ${join(TEMPLATES, 'form-b-partial-update.json')} is form B (no LocationId), so the location comes from the x-service-locationid header: pass --location ID\n`,
    ],
    ['a file that does not exist', () => ['validate-menu', join(dir, 'none.json')], `pos-sandbox: cannot read ${join(dir, 'none.json')}: ENOENT: no such file or directory, open '${join(dir, 'none.json')}'\n`],
  ])('stops with exit code 2 on %s', async (_case, args, stderr) => {
    const result = await cli(args());
    expect(result).toEqual({ code: 2, stdout: '', stderr });
  });
});
