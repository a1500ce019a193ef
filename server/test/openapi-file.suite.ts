/** openapi/openapi.json is the document the sandbox serves: a user can import it without starting anything. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { OPENAPI_FILE, renderOpenApi } from '../../scripts/generate-openapi.js';
import { testSandbox } from './helpers.js';

describe('openapi/openapi.json', () => {
  it('is what GET /_sandbox/openapi.json serves at the default address (npm run generate:openapi rewrites it)', async () => {
    const { app } = await testSandbox();
    const served = (await request(app).get('/_sandbox/openapi.json').set('Host', '127.0.0.1:4100')).body as unknown;
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as unknown;
    const same = JSON.stringify(served) === JSON.stringify(committed);
    if (!same) throw new Error(`${OPENAPI_FILE} differs from the served document: run npm run generate:openapi and commit it`);
    expect(same).toBe(true);
  });

  it('is written exactly as the generator writes it, so a regenerated file has no diff', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8') === renderOpenApi()).toBe(true);
  });
});
