/**
 * The run's body validators (response-contract.ts's bodyValidatorsModule), kept from one run to the next in
 * node_modules/.cache/pos-sandbox/: compiling them took 0.5–0.8 s of every `npm test`, before its first test file,
 * which a developer running one file waits for every time. A kept module is used only when everything its code is
 * made from is the same: the document, the code that makes it (response-contract.ts), and the ajv and ajv-formats
 * it requires, at the same paths and versions.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PREFIX = 'body-validators-';

/** The digest a kept module is named by. */
export function bodyValidatorsKey(document: object, resolve: (specifier: string) => string): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(document));
  hash.update(readFileSync(fileURLToPath(new URL('./response-contract.ts', import.meta.url))));
  for (const specifier of ['ajv/package.json', 'ajv-formats/package.json']) {
    const file = resolve(specifier);
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 32);
}

/** The module kept in `dir` under `key`, else `make()`'s, kept there for the next run (and the older ones removed). */
export function keptBodyValidators(dir: string, key: string, make: () => string): string {
  const file = join(dir, `${PREFIX}${key}.cjs`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Not kept yet, or removed meanwhile by a run beside this one: made again.
  }
  const code = make();
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (name.startsWith(PREFIX)) rmSync(join(dir, name), { force: true });
  // Written whole (a rename): a run beside this one reads either nothing or all of it.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  return code;
}
