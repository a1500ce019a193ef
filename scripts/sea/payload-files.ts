/** The files the standalone executable carries: what the compiled CLI reads at run time, and nothing a package ships for its developers. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, relative, sep } from 'node:path';

/** Folders of the package read at run time; openapi/ is built again by the server and db-migrations/ serves --store, which the executable has not. */
const PACKAGE_PARTS = ['package.json', 'dist', 'fixtures', 'menu-template', 'order-model', 'server/faults/fault-rule.schema.json'];
/** Loaded by name outside the bundle: pino starts its transports' workers from their own files, so each is carried whole. */
const WHOLE_PACKAGES = ['pino', 'pino-pretty'];
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

/** The payload's paths, relative to the package root, in a fixed order. */
export function payloadFiles(root: string): string[] {
  // dist/scripts/ holds the build's own validator compiler, run before packing, never by the CLI.
  const own = PACKAGE_PARTS.flatMap((part) => filesUnder(root, part, (path) => !path.endsWith('.map') && !path.startsWith('dist/scripts/')));
  const packages = new Set([...wholePackages(root, WHOLE_PACKAGES), ...requiredFiles(root, own.filter((path) => path.startsWith('dist/validators/')))]);
  return [...own, ...[...packages].sort()];
}
