/** npm run test:timings [-- <jest --json output>]: a test run's time, file by file, as a Markdown table. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../server/version.js';

interface JestJson {
  startTime: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }>;
}

/** What a file does that costs time, by what its source (and the suites it imports) calls. */
const TRAITS: Array<[string, RegExp]> = [
  ['spawns processes', /from '[./]*(?:server\/test\/)?processes\.js'|\bspawn\(|execFile/],
  ['PostgreSQL', /testDatabase|RUN_POSTGRES_TESTS|on-postgres/],
  ['browser', /from '[./]*(?:server\/test\/)?browser\.js'|playwright/],
  ['whole checklist', /runAgainst\w*\(|runChecklist\(|'demo'|certify/],
];

/** The file's source and that of every local module it imports that ends in .suite.ts (the suites a file runs). */
function sourceOf(file: string, seen = new Set<string>()): string {
  if (seen.has(file) || !existsSync(file)) return '';
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const suites = [...text.matchAll(/(?:import|await import)\(?\s*'(\.[^']+\.suite)\.js'/g)].map((match) => resolve(dirname(file), `${match[1]}.ts`));
  return [text, ...suites.map((suite) => sourceOf(suite, seen))].join('\n');
}

const given = process.argv[2];
let file = given;
if (!file) {
  file = join(mkdtempSync(join(tmpdir(), 'pos-sandbox-timings-')), 'jest.json');
  try {
    execFileSync('npm', ['test', '--', '--json', `--outputFile=${file}`], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // A failing run still has its timings.
  }
}
const run = JSON.parse(readFileSync(file, 'utf8')) as JestJson;
const rows = run.testResults
  .map((result) => ({ name: relative(PACKAGE_ROOT, result.name), seconds: (result.endTime - result.startTime) / 1000, tests: result.assertionResults.length, source: sourceOf(result.name) }))
  .sort((a, b) => b.seconds - a.seconds);
const total = rows.reduce((sum, row) => sum + row.seconds, 0);
const wall = (Math.max(...run.testResults.map((result) => result.endTime)) - run.startTime) / 1000;
const lines = [
  `${rows.length} files, ${rows.reduce((sum, row) => sum + row.tests, 0)} tests; ${wall.toFixed(1)} s from jest's start to its last file's end, ${total.toFixed(0)} file-seconds in all.`,
  '',
  '| file | s | tests | what it does |',
  '|---|---|---|---|',
  ...rows.filter((row) => row.seconds >= 1).map((row) => `| ${row.name} | ${row.seconds.toFixed(1)} | ${row.tests} | ${TRAITS.filter(([, pattern]) => pattern.test(row.source)).map(([trait]) => trait).join(', ')} |`),
  `| ${rows.filter((row) => row.seconds < 1).length} files under 1 s | ${rows.filter((row) => row.seconds < 1).reduce((sum, row) => sum + row.seconds, 0).toFixed(1)} | ${rows.filter((row) => row.seconds < 1).reduce((sum, row) => sum + row.tests, 0)} | |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
