/** `pos-sandbox export`: files that let other tools use the sandbox; one subcommand per tool. */
import { Command } from 'commander';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, partnerOverrideFromEnv, resolvePartner, type PartnerIdentity } from '../config.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { buildPostmanExport, COLLECTION_FILE, ENVIRONMENT_FILE } from '../postman/build-postman-export.js';
import { pickExamples } from '../postman/pos-call-requests.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { exitWith } from './cli-output.js';
import { resolveSandboxUrl } from './control-client.js';
import { causeOf } from '../../certification-checklist/sandbox-control.js';
import { mintPosToken } from '../tokens/mint-pos-token.js';

export function exportCommand(): Command {
  return new Command('export').description('write files that let another tool use the sandbox (postman)').addCommand(exportPostmanCommand());
}

/** `pos-sandbox export postman`: writes a Postman collection and its environment for a running sandbox. */

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
    // The same flag and default as every command's --sandbox (control-client.ts).
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

/** One level at a time: Node 20's recursive mkdirSync spins for ever under some folders (/proc/x). */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) mkdirSync(folder);
}

/** I/O: whether a running sandbox plays the partner the export signs for, judged by a token checked with POST /_sandbox/tokens/check, so the key never leaves this process. */

/** Only a silent server costs this; a loaded machine may take seconds to answer. */
const ASK_TIMEOUT_MS = 10_000;

export type PartnerCheck = { kind: 'same' } | { kind: 'other'; problem: string } | { kind: 'unknown'; note: string };

export async function checkPartnerOf(sandboxUrl: string, partner: PartnerIdentity, locationId: string, adminToken: string | undefined): Promise<PartnerCheck> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}) };
  const ask = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  let playing: unknown;
  try {
    playing = (await ask('/_sandbox/health')).partner;
  } catch (error) {
    return { kind: 'unknown', note: `the sandbox at ${sandboxUrl} did not answer (${causeOf(error)}), so the partner could not be checked against it; the environment is ${partner.name}'s` };
  }
  const fix = 'set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY as the sandbox was started with, and export again';
  if (typeof playing === 'string' && playing !== partner.name) {
    return { kind: 'other', problem: `the sandbox at ${sandboxUrl} plays partner '${playing}', but the export would sign its tokens as '${partner.name}': every call would be refused 401; ${fix}` };
  }
  try {
    const { token } = mintPosToken({ posName: partner.name, key: partner.nonProdKey, locationId, ttlSeconds: 60, nowSeconds: Math.floor(Date.now() / 1000) });
    const judged = await ask('/_sandbox/tokens/check', { token });
    const signature = (judged.rules as Array<{ rule: string; verdict: string }> | undefined)?.find((rule) => rule.rule === 'signature');
    if (signature?.verdict === 'fail') return { kind: 'other', problem: `the sandbox at ${sandboxUrl} plays partner '${partner.name}' with another non-prod key than the export would sign with: every call would be refused 401; ${fix}` };
  } catch {
    // A sandbox whose token check is not ours to call (a hosted one without the operator's token): the name matched.
  }
  return { kind: 'same' };
}
