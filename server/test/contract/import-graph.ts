/**
 * Whether a test file can load a package, read from its sources: its relative imports followed to the end, each
 * `.js` specifier naming its `.ts` source, as jest's moduleNameMapper does. check-responses.setup.ts asks it so
 * that only test files that can use supertest pay for loading it (about 0.3 s each).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Static imports and re-exports (`from '…'`), side-effect imports (`import '…'`) and import('…') with a literal.
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*(['"])([^'"]+)\1/g;
// import( followed by anything but a string literal: where it leads cannot be read from the source.
const COMPUTED_IMPORT = /\bimport\s*\(\s*(?!['"])/;

/** True when `file` imports `pkg` (or a subpath of it), directly or through local modules, or may, through an import( of a computed specifier. */
export function mayImport(file: string, pkg: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  if (COMPUTED_IMPORT.test(source)) return true;
  for (const [, , specifier] of source.matchAll(SPECIFIER)) {
    if (specifier === pkg || specifier!.startsWith(`${pkg}/`)) return true;
    if (!specifier!.startsWith('.')) continue;
    const target = resolve(dirname(file), specifier!);
    const local = [target.replace(/\.js$/, '.ts'), target].find((candidate) => /\.(ts|js|mjs)$/.test(candidate) && existsSync(candidate));
    if (local !== undefined && mayImport(local, pkg, seen)) return true;
  }
  return false;
}
