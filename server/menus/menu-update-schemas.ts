/** Reads the menu-update JSON Schemas shipped in menu-template/schemas: the server and validate-menu check with these same files. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { ConfigError } from '../config.js';
import type { MenuUpdateFormA, MenuUpdateFormB } from './menu-update-types.js';
import { PACKAGE_ROOT } from '../version.js';
import { compileSchema, newAjv } from '../fixtures/compiled-schemas.js';

export const MENU_SCHEMA_DIR = join(PACKAGE_ROOT, 'menu-template', 'schemas');

/** The schema file of each form. */
export const MENU_SCHEMA_FILES = { A: 'menu-update-form-a.schema.json', B: 'menu-update-form-b.schema.json' } as const;

export interface MenuUpdateValidators {
  A: ValidateFunction<MenuUpdateFormA>;
  B: ValidateFunction<MenuUpdateFormB>;
}

/** How the forms are compiled; `npm run build` compiles the shipped ones with these too (scripts/build-validators.ts). */
export const MENU_AJV_OPTIONS: Options = { allErrors: true, verbose: true };

const compiled = new Map<string, MenuUpdateValidators>();

/** Compiles both forms with `allErrors` (every problem in one answer) and `verbose` (the offending value in the message). */
export function loadMenuUpdateSchemas(dir = MENU_SCHEMA_DIR): MenuUpdateValidators {
  const known = compiled.get(dir);
  if (known) return known;
  let ajv: Ajv | undefined;
  const compile = <T>(file: string): ValidateFunction<T> => {
    const path = join(dir, file);
    try {
      return compileSchema<T>(() => (ajv ??= newAjv(MENU_AJV_OPTIONS)), MENU_AJV_OPTIONS, JSON.parse(readFileSync(path, 'utf8')) as object);
    } catch (error) {
      // Someone editing a schema gets the file and the reason, not a stack trace.
      throw new ConfigError(`the menu-update schema ${path} cannot be used: ${(error as Error).message}; restore it with git checkout, or fix it`);
    }
  };
  const validators = {
    A: compile<MenuUpdateFormA>(MENU_SCHEMA_FILES.A),
    B: compile<MenuUpdateFormB>(MENU_SCHEMA_FILES.B),
  };
  // Compiled once per folder: the validators hold no state between calls, and tests build many sandboxes.
  compiled.set(dir, validators);
  return validators;
}
