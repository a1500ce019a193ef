/** `pos-sandbox validate-menu FILE`: checks a menu-update payload offline, with the messages PUT /menu answers with. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../config.js';
import { isRecord, menuFormOf } from '../menus/menu-update-check.js';
import { parseJsonBody } from '../http/json-text.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { loadMenuUpdateSchemas } from '../menus/menu-update-schemas.js';
import { PACKAGE_ROOT } from '../version.js';
import { exitWith } from './cli-output.js';
import { formatVerdict, menuVerdict } from './menu-verdict.js';

interface ValidateMenuFlags {
  location?: string;
  fixtures: string;
  strict: boolean;
  json: boolean;
}

export function validateMenuCommand(): Command {
  return new Command('validate-menu')
    .description('check a PUT /menu payload offline: the same checks and messages as the server; exit 1 on errors')
    .argument('<file>', 'the payload, a JSON file; - reads standard input')
    .option('--location <id>', 'the x-service-locationid the POS will send (needed for form B; form A defaults to its LocationId)')
    .option('--fixtures <dir>', 'fixture folder: the locations and the menus to check against', join(PACKAGE_ROOT, 'fixtures'))
    .option('--strict', 'count findings as errors, as serve --strict does', false)
    .option('--json', 'print the verdict as JSON: status, the error envelope, findings, changes', false)
    .addHelpText(
      'after',
      '\nItem Ids, prices and findings are checked against the fixture menus, not a running sandbox.\nExit codes: 0 valid, 1 the server would answer 400, 2 the check could not run.\nExample: npx pos-sandbox validate-menu menu-template/form-b-partial-update.json --location loc-std-001',
    )
    .action(async (file: string, flags: ValidateMenuFlags) => {
      await exitWith(async () => {
        process.exitCode = validateMenu(file, flags);
      });
    });
}

function validateMenu(file: string, flags: ValidateMenuFlags): number {
  const text = readPayload(file);
  const location = flags.location?.trim();
  if (location === '') throw new ConfigError('--location must not be empty');
  const body = parseJsonBody('application/json', text);
  // Form B's location is only a header, so offline only --location can give it.
  if (location === undefined && body.ok && isRecord(body.value) && menuFormOf(body.value) === 'B') {
    throw new ConfigError(`${file === '-' ? 'standard input' : file} is form B (no LocationId), so the location comes from the x-service-locationid header: pass --location ID`);
  }
  const fixtures = loadFixtures(flags.fixtures);
  const context = { validators: loadMenuUpdateSchemas(), locations: fixtures.locations, menuOf: (id: string) => (Object.hasOwn(fixtures.menus, id) ? fixtures.menus[id] : undefined) };
  const verdict = menuVerdict(file === '-' ? 'stdin' : file, body, location, flags.strict, context);
  process.stdout.write(flags.json ? `${JSON.stringify(verdict, null, 2)}\n` : formatVerdict(verdict));
  return verdict.valid ? 0 : 1;
}

function readPayload(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
}
