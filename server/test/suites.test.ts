/**
 * The suites of this folder (`*.suite.ts`) run only when a test file imports them (pos-api.test.ts says why): a suite
 * no test file names would never run, and nothing else would say so.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('.', import.meta.url));

describe('the suites of server/test/', () => {
  it('are each imported by a test file of the folder', () => {
    const files = readdirSync(DIR);
    const testSources = files.filter((name) => name.endsWith('.test.ts')).map((name) => readFileSync(`${DIR}${name}`, 'utf8'));
    const suites = files.filter((name) => name.endsWith('.suite.ts'));
    expect(suites.length).toBeGreaterThan(0);
    // An import at the start of a line: one commented out does not run the suite.
    const imported = new Set(testSources.flatMap((source) => Array.from(source.matchAll(/^await import\('\.\/([\w-]+\.suite)\.js'\);/gm), (match) => `${match[1]}.ts`)));
    const unrun = suites.filter((suite) => !imported.has(suite));
    expect(unrun).toEqual([]);
  });
});
