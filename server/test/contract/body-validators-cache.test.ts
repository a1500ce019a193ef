/** The body validators kept from one test run to the next: used only for the very document and code they were made from. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodyValidatorsKey, keptBodyValidators } from './body-validators-cache.js';

const { resolve } = createRequire(import.meta.url);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-validators-'));
  dirs.push(dir);
  return join(dir, 'cache');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('keptBodyValidators', () => {
  it('makes the module once, then hands back the kept one for the same key', () => {
    const dir = tempDir();
    let made = 0;
    const make = () => `module.exports = ${++made};`;
    expect(keptBodyValidators(dir, 'a1', make)).toBe('module.exports = 1;');
    expect(keptBodyValidators(dir, 'a1', make)).toBe('module.exports = 1;');
    expect(made).toBe(1);
  });

  it('makes it again for another key, and keeps only the newest', () => {
    const dir = tempDir();
    keptBodyValidators(dir, 'a1', () => 'first');
    expect(keptBodyValidators(dir, 'b2', () => 'second')).toBe('second');
    expect(readdirSync(dir)).toEqual(['body-validators-b2.cjs']);
  });

  it('makes it again when the kept file went away (a run beside this one cleared it)', () => {
    const dir = tempDir();
    keptBodyValidators(dir, 'a1', () => 'first');
    rmSync(join(dir, 'body-validators-a1.cjs'));
    expect(keptBodyValidators(dir, 'a1', () => 'again')).toBe('again');
  });
});

describe('bodyValidatorsKey', () => {
  it('changes with the document and only with it, for the same code and packages', () => {
    const document = { paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'object' } } } } } } } } };
    const edited = { paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'array' } } } } } } } } };
    expect(bodyValidatorsKey(document, resolve)).toBe(bodyValidatorsKey(structuredClone(document), resolve));
    expect(bodyValidatorsKey(edited, resolve)).not.toBe(bodyValidatorsKey(document, resolve));
  });

  it('changes with the ajv it requires', () => {
    const document = { paths: {} };
    // Another ajv at another path: the kept module requires ajv by its absolute path.
    const elsewhere = (specifier: string) => (specifier.startsWith('ajv/') ? resolve('ajv-formats/package.json') : resolve(specifier));
    expect(bodyValidatorsKey(document, elsewhere)).not.toBe(bodyValidatorsKey(document, resolve));
  });
});
