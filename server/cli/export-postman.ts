/** `pos-sandbox export postman`: writes a Postman collection and its environment for a running sandbox. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, partnerOverrideFromEnv, resolvePartner } from '../config.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { buildPostmanExport, COLLECTION_FILE, ENVIRONMENT_FILE } from '../postman/build-postman-export.js';
import { pickExamples } from '../postman/pos-call-requests.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { exitWith } from './exit.js';
import { checkPartnerOf } from './partner-of-sandbox.js';
import { resolveSandboxUrl } from './sandbox-url.js';

interface ExportPostmanFlags {
  out: string;
  sandbox?: string;
  location?: string;
  fixtures: string;
}

export function exportPostmanCommand(): Command {
  return new Command('postman')
    .description('write a Postman collection (every POS call and the control API, with tests) and its environment')
    .option('--out <dir>', 'the folder the two files are written into (made if missing)', '.')
    // The same flag and default as every command's --sandbox (sandbox-url.ts).
    .option('--sandbox <url>', `the running sandbox, the environment's baseUrl (default: SANDBOX_URL, else http://${DEFAULT_HOST}:${DEFAULT_PORT})`)
    .option('--location <id>', 'the location of the POS calls and the menu examples (default: the first standard location)')
    .option('--fixtures <dir>', 'fixture folder (the partner, its key, the locations and their menus)', join(PACKAGE_ROOT, 'fixtures'))
    .addHelpText(
      'after',
      "\nThe environment's POS name and key are SANDBOX_PARTNER and SANDBOX_NONPROD_KEY when set, otherwise the fixture partner's, as for `token`; when the sandbox at --sandbox answers and plays another partner (or another key), nothing is written and the command exits 2.\nExample: npx pos-sandbox export postman --out .",
    )
    .action(async (flags: ExportPostmanFlags) => {
      await exitWith(async () => exportPostman(flags));
    });
}

async function exportPostman(flags: ExportPostmanFlags): Promise<void> {
  const sandbox = resolveSandboxUrl(flags.sandbox, process.env);
  if (!sandbox.ok) throw new ConfigError(sandbox.problem);
  const sandboxUrl = sandbox.url;
  const fixtures = loadFixtures(flags.fixtures);
  const override = partnerOverrideFromEnv(process.env);
  const partner = resolvePartner(fixtures.partner, override);
  const picked = pickExamples(fixtures, flags.location);
  if (!picked.ok) throw new ConfigError(picked.problem);
  const { collection, environment } = buildPostmanExport({ version: VERSION, sandboxUrl, partner, examples: picked.examples });

  const dir = resolve(flags.out);
  const collectionPath = join(dir, COLLECTION_FILE);
  const environmentPath = join(dir, ENVIRONMENT_FILE);
  const cannotWrite = (error: unknown) => new ConfigError(`cannot write the Postman files into ${dir}: ${(error as Error).message}`);
  try {
    makeFolder(dir);
  } catch (error) {
    throw cannotWrite(error);
  }
  // Files for another partner than the running sandbox plays would get a 401 on every call: said before any is written.
  const against = await checkPartnerOf(sandboxUrl, partner, picked.examples.location.id, process.env.SANDBOX_ADMIN_TOKEN);
  if (against.kind === 'other') throw new ConfigError(against.problem);
  if (against.kind === 'unknown') process.stderr.write(`note: ${against.note}\n`);
  try {
    writeFileSync(collectionPath, `${JSON.stringify(collection, null, 2)}\n`);
    // The environment holds the key: readable by its owner only.
    writeFileSync(environmentPath, `${JSON.stringify(environment, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw cannotWrite(error);
  }
  if (override.nonProdKey !== undefined) {
    process.stderr.write(`note: ${ENVIRONMENT_FILE} holds your non-prod key (SANDBOX_NONPROD_KEY); keep it out of repositories and shared workspaces (§5)\n`);
  }
  process.stdout.write(
    [
      `Wrote the Postman collection and environment for the sandbox at ${sandboxUrl}:`,
      `  ${collectionPath}`,
      `  ${environmentPath}`,
      `Import both into Postman (File → Import), choose the environment "${environment.name}",`,
      'then open a request and Send (or run the collection: it starts by resetting the sandbox to its fixtures).',
      '',
    ].join('\n'),
  );
}

/**
 * mkdir -p one level at a time: Node 20's recursive mkdirSync spins for ever where mkdir answers ENOENT
 * under a folder that exists (--out /proc/x hung at 100 % CPU).
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) mkdirSync(folder);
}
