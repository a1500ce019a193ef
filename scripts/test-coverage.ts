/** npm run test:coverage: line and branch coverage of the four source folders over npm test and test:system, spawned processes included (c8 through dist's maps). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../server/version.js';
import { mergedTotals, percent, type CoverageMap } from './coverage-check/merge-coverage.js';

const FOLDERS = ['server', 'certification-checklist', 'dashboard', 'reference-pos'];
const keep = process.argv.includes('--keep') ? process.argv[process.argv.indexOf('--keep') + 1] : undefined;
const work = mkdtempSync(join(tmpdir(), 'pos-sandbox-coverage-'));
const raw = join(work, 'raw');
const env = { ...process.env, NODE_V8_COVERAGE: raw };

/** One jest run with coverage into `name`; its exit code. */
function jestRun(name: string, script: string[]): number {
  const flags = ['--coverage', '--coverageReporters=json', `--coverageDirectory=${join(work, name)}`];
  process.stdout.write(`test:coverage: npm ${script.join(' ')} ${flags.join(' ')}\n`);
  return spawnSync('npm', [...script, '--', ...flags], { cwd: PACKAGE_ROOT, env, stdio: 'inherit' }).status ?? 1;
}

const scripts = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const codes = [jestRun('unit', ['test']), ...(scripts['test:system'] ? [jestRun('system', ['run', 'test:system'])] : [])];

// Only dist/: jest counted what its workers ran already.
const dist = pathToFileURL(join(PACKAGE_ROOT, 'dist')).href;
const children = join(work, 'children');
mkdirSync(children, { recursive: true });
for (const name of existsSync(raw) ? readdirSync(raw) : []) {
  const process_ = JSON.parse(readFileSync(join(raw, name), 'utf8')) as { result: Array<{ url: string }>; 'source-map-cache'?: unknown };
  const result = process_.result.filter((script) => script.url.startsWith(dist));
  if (result.length > 0) writeFileSync(join(children, name), JSON.stringify({ ...process_, result }));
}
const c8 = spawnSync(
  'npx',
  ['c8', 'report', '--temp-directory', children, '--reporter', 'json', '--report-dir', join(work, 'child'), '--exclude-after-remap', ...FOLDERS.flatMap((folder) => ['--include', `${folder}/**`]), '--exclude', '**/*.test.ts', '--exclude', '**/test/**'],
  { cwd: PACKAGE_ROOT, stdio: 'inherit' },
);
if (c8.status !== 0) codes.push(c8.status ?? 1);

const read = (name: string): CoverageMap => {
  const file = join(work, name, 'coverage-final.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CoverageMap) : {};
};
const maps = ['unit', 'system', 'child'].map(read);
if (keep) {
  mkdirSync(keep, { recursive: true });
  ['unit', 'system', 'child'].forEach((name, i) => writeFileSync(join(keep, `${name}.json`), JSON.stringify(maps[i])));
}
/** Whether a source file leaves any code once its types are erased: one of types alone is never loaded, so it has no lines to cover. */
const runs = (file: string) =>
  ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: { module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.ReactJSX, removeComments: true } }).outputText.replace(/export \{\};?/g, '').trim() !== '';
// Every source file jest was told to measure (jest.config.js, collectCoverageFrom), loaded or not, that has code.
const files = [...new Set(maps.slice(0, 2).flatMap((map) => Object.keys(map)))].filter(runs).sort();
const rows = [['all', files] as const, ...FOLDERS.map((folder) => [folder, files.filter((file) => relative(PACKAGE_ROOT, file).split(sep)[0] === folder)] as const)];
process.stdout.write(`\n| scope | files | lines | branches |\n|---|---|---|---|\n`);
for (const [scope, scoped] of rows) {
  const totals = mergedTotals(maps, scoped);
  process.stdout.write(`| ${scope} | ${scoped.length} | ${percent(totals.lines)} (${totals.lines.covered} of ${totals.lines.total}) | ${percent(totals.branches)} (${totals.branches.covered} of ${totals.branches.total}) |\n`);
}
rmSync(work, { recursive: true, force: true });
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
