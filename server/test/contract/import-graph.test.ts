/** mayImport, on real files in a temporary folder. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mayImport } from './import-graph.js';

const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(tree: Record<string, string>): void {
  for (const [name, text] of Object.entries(tree)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

describe('mayImport', () => {
  files({
    'direct.test.ts': "import request from 'supertest';\n",
    'subpath.test.ts': "import type { Test } from 'supertest/lib/test.js';\n",
    'chain.test.ts': "import { a } from './lib/a.js';\n",
    'lib/a.ts': "export { b as a } from '../deep/b.js';\n",
    'deep/b.ts': "import 'supertest';\nexport const b = 1;\n",
    'cycle.test.ts': "import { c } from './c1.js';\n",
    'c1.ts': "import { d } from './c2.js';\nexport const c = d;\n",
    'c2.ts': "import { c } from './c1.js';\nimport express from 'express';\nexport const d = c ?? express;\n",
    'dynamic.test.ts': "const m = await import('supertest');\n",
    'computed.test.ts': "const name = 'super' + 'test';\nconst m = await import(name);\n",
    'similar.test.ts': "import x from 'supertest-extra';\nimport { j } from './data.json';\n",
    'data.json': '{}',
    'plain.js': "import { readFileSync } from \"node:fs\";\n",
    'plain-user.test.ts': "import { x } from './plain.js';\n",
  });

  it.each([
    ['direct.test.ts', true],
    ['subpath.test.ts', true],
    ['chain.test.ts', true],
    ['dynamic.test.ts', true],
    ['computed.test.ts', true],
    ['cycle.test.ts', false],
    ['similar.test.ts', false],
    ['plain-user.test.ts', false],
  ])('%s → %s', (file, expected) => {
    expect(mayImport(join(dir, file), 'supertest')).toBe(expected);
  });
});
