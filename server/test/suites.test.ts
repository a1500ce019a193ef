/**
 * A suite (`*.suite.ts`) runs only when a test file of its folder imports it, by a line of its own
 * `await import('./NAME.suite.js');` (server/test/pos-api.test.ts says why): a suite no test file names would never
 * run, and nothing else would say so. So suites live only directly in the folders below, where this test looks.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

const FOLDERS = ['server/test', 'certification-checklist/test'];

describe('the suites', () => {
  it.each(FOLDERS)('of %s are each imported by a test file of the folder', (folder) => {
    const dir = join(PACKAGE_ROOT, folder);
    const files = readdirSync(dir);
    const testSources = files.filter((name) => name.endsWith('.test.ts')).map((name) => readFileSync(join(dir, name), 'utf8'));
    const suites = files.filter((name) => name.endsWith('.suite.ts'));
    expect(suites.length).toBeGreaterThan(0);
    // An import at the start of a line: one commented out does not run the suite.
    const imported = new Set(testSources.flatMap((source) => Array.from(source.matchAll(/^await import\('\.\/([\w-]+\.suite)\.js'\);/gm), (match) => `${match[1]}.ts`)));
    expect(suites.filter((suite) => !imported.has(suite))).toEqual([]);
  });

  it('are only in those folders, not in folders below them', () => {
    const found: string[] = [];
    const walk = (relative: string) => {
      for (const entry of readdirSync(join(PACKAGE_ROOT, relative), { withFileTypes: true })) {
        const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory() && !['node_modules', 'dist', '.git', '.scratch', '.sandbox'].includes(entry.name)) walk(path);
        else if (entry.isFile() && entry.name.endsWith('.suite.ts')) found.push(path);
      }
    };
    walk('');
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((path) => !FOLDERS.includes(path.slice(0, path.lastIndexOf('/'))))).toEqual([]);
  });
});
