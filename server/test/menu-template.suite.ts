/** menu-template/: every payload is accepted by the sandbox, and the generated types match the schemas. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { renderTypes, TYPES_TARGETS } from '../../scripts/generate-types.js';
import { PACKAGE_ROOT } from '../version.js';
import { posToken, putMenu, testSandbox } from './helpers.js';

const DIR = join(PACKAGE_ROOT, 'menu-template');
const manifest = JSON.parse(readFileSync(join(DIR, 'templates.json'), 'utf8')) as Array<{ file: string; form: 'A' | 'B'; locationId: string; use: string }>;

describe('menu-template/', () => {
  it('lists every payload in templates.json, and the folder README names each one', () => {
    const payloads = readdirSync(DIR).filter((file) => file.endsWith('.json') && file !== 'templates.json');
    expect(manifest.map((t) => t.file).sort()).toEqual(payloads.sort());
    const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
    for (const { file } of manifest) expect(readme).toContain(file);
  });

  it.each(manifest.map((t) => [t.file, t] as const))('%s is accepted by the running sandbox with no findings', async (file, template) => {
    const sandbox = await testSandbox();
    const body = readFileSync(join(DIR, file), 'utf8');
    const response = await putMenu(sandbox.app, body, {
      headers: { 'x-service-locationid': template.locationId, Authorization: `Bearer ${posToken({ sub: template.locationId })}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-sandbox-findings']).toBe('0');
    expect(Number(response.headers['x-sandbox-menu-changes'])).toBeGreaterThan(0);
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.menuUpdate).toMatchObject({ form: template.form, locationId: template.locationId });
  });

  it('has the TypeScript types generated from its schemas (npm run generate:types)', async () => {
    const [menuTypes] = TYPES_TARGETS;
    expect(readFileSync(menuTypes!.file, 'utf8')).toBe(await renderTypes(menuTypes!));
  });
});
