/** The files the standalone executable carries: what the compiled CLI reads at run time, and nothing a package ships for its developers. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, relative, sep } from 'node:path';

/** Folders of the package read at run time; openapi/ is built again by the server and db-migrations/ serves --store, which the executable has not. */
const PACKAGE_PARTS = ['package.json', 'dist', 'fixtures', 'menu-template', 'order-model', 'server/faults/fault-rule.schema.json'];
/** Loaded by name outside the bundle: pino starts its transports' workers from their own files, so each is carried whole. */
const WHOLE_PACKAGES = ['pino', 'pino-pretty'];
/** Imported by --store only, which the executable refuses: each is carried as a package that says so, so that no import is ever looked for in a node_modules above the cache. */
const STUBBED_PACKAGES = ['pg', 'node-pg-migrate'];
const STUB_MESSAGE = '--store (PostgreSQL) is not in the standalone executable: run the npm package with Node 20.19 or later for it (docs/install.md)';
/** What a package ships for its developers: tests, docs, types, maps, sources, pictures, tool settings. */
const NOT_RUN = /(^|\/)(tests?|__tests__|docs?|benchmarks?|examples?|\.github)\/|\.(d\.[cm]?ts|ts|map|md|markdown|png|jpe?g|gif|svg|ya?ml|sh)$|(^|\/)(tsconfig[^/]*\.json|\.[^/]+)$/;

/** Every file under `dir` of `root`, relative to it, as `keep` has it. */
function filesUnder(root: string, dir: string, keep: (path: string) => boolean): string[] {
  const full = join(root, dir);
  if (!statSync(full).isDirectory()) return [dir];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(keep);
}

/** The package folder a file of node_modules belongs to. */
function packageDir(file: string): string {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(0, at + (parts[at + 1]!.startsWith('@') ? 3 : 2)).join('/');
}

/** The packages `names` need at run time, found as Node would find them from the root's node_modules. */
function wholePackages(root: string, names: string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    // A package nested under its dependant wins over the hoisted one, as Node's resolution has it.
    const candidates = [join(from, 'node_modules', name), join(root, 'node_modules', name)];
    const dir = candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
    if (!dir) throw new Error(`${name}, needed by ${relative(root, from) || 'the sandbox'}, is not installed: run npm ci`);
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, root);
  return [...found].flatMap((dir) => filesUnder(root, relative(root, dir), (path) => !NOT_RUN.test(relative(relative(root, dir), path))));
}

/** The files the compiled validators `require` (ajv's runtime helpers) and what those require in turn, each with its package's manifest. */
function requiredFiles(root: string, sources: string[]): string[] {
  const found = new Set<string>();
  const visit = (file: string) => {
    const text = readFileSync(join(root, file), 'utf8');
    const from = createRequire(join(root, file));
    for (const [, specifier] of text.matchAll(/\brequire\(["']([^"']+)["']\)/g)) {
      if (isBuiltin(specifier!)) continue;
      const required = relative(root, from.resolve(specifier!)).split(sep).join('/');
      if (found.has(required)) continue;
      found.add(required);
      found.add(`${packageDir(required)}/package.json`);
      visit(required);
    }
  };
  sources.filter((file) => /\.c?js$/.test(file)).forEach(visit);
  return [...found];
}

/** The packages the bundle imports by name: each must be carried whole or as a stub, or Node would look for it above the cache. */
function checkImports(root: string, bundle: string[]): void {
  const carried = new Set([...WHOLE_PACKAGES, ...STUBBED_PACKAGES]);
  for (const file of bundle.filter((path) => path.endsWith('.js'))) {
    for (const [, specifier] of readFileSync(join(root, file), 'utf8').matchAll(/(?:\bfrom ?|\bimport\()"([^"./][^"]*)"/g)) {
      const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!;
      if (!isBuiltin(specifier!) && !carried.has(name)) throw new Error(`${file} imports ${specifier}, which the executable does not carry: add it to scripts/sea/payload-files.ts`);
    }
  }
}

/** The payload's files, relative to the package root, in a fixed order: each with its bytes when it is not a file of the package. */
export function payloadFiles(root: string): Array<{ path: string; body?: Buffer }> {
  // dist/scripts/ holds the build's own validator compiler, run before packing, never by the CLI.
  const own = PACKAGE_PARTS.flatMap((part) => filesUnder(root, part, (path) => !path.endsWith('.map') && !path.startsWith('dist/scripts/')));
  // The dashboard's script runs in the browser; the validators' requires are followed by requiredFiles.
  checkImports(root, own.filter((path) => path.startsWith('dist/') && !/^dist\/(dashboard|validators)\//.test(path)));
  const packages = new Set([...wholePackages(root, WHOLE_PACKAGES), ...requiredFiles(root, own.filter((path) => path.startsWith('dist/validators/')))]);
  const stubs = STUBBED_PACKAGES.flatMap((name) => [
    { path: `node_modules/${name}/package.json`, body: Buffer.from(`${JSON.stringify({ name, version: '0.0.0', main: 'index.js' })}\n`) },
    { path: `node_modules/${name}/index.js`, body: Buffer.from(`throw new Error(${JSON.stringify(STUB_MESSAGE)});\n`) },
  ]);
  return [...own, ...[...packages].sort()].map((path) => ({ path })).concat(stubs);
}
