/** npm run check:ci-recipes: the recipes of docs/ci.md run as a runner would, against the correct reference POS (exit 0) and --bug exp-in-ms (exit 1, AUTH-06 failing); the no-Node one with no node or npm on the PATH. */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { CHECKLIST } from '../certification-checklist/items/all-items.js';
import { PACKAGE_ROOT, VERSION } from '../server/version.js';
import { pathWithoutNode } from './package-check/path-without-node.js';
import { freePort } from './package-check/processes.js';

interface Recipe {
  name: string;
  commands: string[];
  /** The variables the recipe sets for its commands (a step's env, a job's variables); secrets as `${{ secrets.X }}`. */
  variables: Record<string, string>;
  /** Run with no node, npm, npx or corepack on the PATH, the executable's artefact fetched as the recipe says. */
  withoutNode?: boolean;
}

/** What the no-Node recipe needs: the artefact and its sum served from a local address, the executable for the stand-in POS, a PATH without Node. */
interface NoNodeSetting {
  url: string;
  sum: string;
  launcher: string;
  path: string;
}

const NAME = `pos-sandbox-${VERSION}-linux-x64`;

/** The key the check gives the pipeline's secret (SANDBOX_NONPROD_KEY): the runner's masked variable. */
const TEST_KEY = 'ci-recipe-check-nonprod-key-0123456789abcdef';

/** The YAML block under `## heading` of docs/ci.md. */
function yamlUnder(page: string, heading: string): unknown {
  const at = page.indexOf(`\n## ${heading}\n`);
  const block = at < 0 ? null : /```yaml\n([\s\S]*?)```/.exec(page.slice(at));
  if (!block) throw new Error(`docs/ci.md has no yaml block under "## ${heading}"`);
  return parse(block[1]!);
}

/** The commands of both recipes, each without its install line. */
export function recipes(page: string): Recipe[] {
  const workflow = yamlUnder(page, 'GitHub Actions') as { jobs: Record<string, { steps: Array<{ run?: string; env?: Record<string, string> }> }> };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const github = steps.flatMap((step) => (step.run ? step.run.trim().split('\n') : []));
  const jobs = Object.values(yamlUnder(page, 'GitLab CI') as Record<string, { script?: string[]; variables?: Record<string, string> }>);
  const gitlab = jobs.flatMap((job) => job.script ?? []);
  const installed = (line: string) => !/^npm install -g /.test(line.trim());
  const noNode = Object.values(yamlUnder(page, 'A runner without Node') as Record<string, { script?: string[]; variables?: Record<string, string> }>);
  // A secret is the runner's to give: the check gives the test key; GitLab's is a project variable, named in a comment.
  const secrets = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).map(([name, value]) => [name, /\$\{\{\s*secrets\./.test(value) ? TEST_KEY : value]));
  return [
    { name: 'GitHub Actions', commands: github.filter(installed), variables: secrets(Object.assign({}, ...steps.map((step) => step.env ?? {}))) },
    { name: 'GitLab CI', commands: gitlab.filter(installed), variables: { SANDBOX_NONPROD_KEY: TEST_KEY, ...Object.assign({}, ...jobs.map((job) => job.variables ?? {})) } },
    { name: 'a runner without Node', commands: noNode.flatMap((job) => job.script ?? []), variables: { SANDBOX_NONPROD_KEY: TEST_KEY, ...Object.assign({}, ...noNode.map((job) => job.variables ?? {})) }, withoutNode: true },
  ];
}

/** The artefact as a team keeps it: built here, served from a local address standing in for POS_SANDBOX_FROM, and unpacked once for the stand-in POS. */
async function noNodeSetting(folder: string): Promise<{ setting: NoNodeSetting; server: Server }> {
  execFileSync('npm', ['run', '-s', 'build:executable', '--', '--out', join(folder, 'pos-sandbox-linux-x64')], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('tar', ['-xzf', `${NAME}.tar.gz`], { cwd: folder });
  const server = createServer((request, response) => {
    const file = join(folder, basename(request.url ?? ''));
    if (!request.url?.endsWith('.tar.gz') || !existsSync(file)) return void response.writeHead(404).end();
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, setting: { url: `http://127.0.0.1:${port}`, sum: join(folder, `${NAME}.tar.gz.sha256`), launcher: join(folder, NAME, 'pos-sandbox'), path: pathWithoutNode(join(folder, 'bin')) } };
}

/** Runs a recipe's commands with bash in a fresh folder; answers the exit code and the JUnit it left, if any. */
async function runRecipe(recipe: Recipe, bug: string | undefined, noNode: NoNodeSetting | undefined): Promise<{ code: number; output: string; junit: string | undefined }> {
  const folder = mkdtempSync(join(tmpdir(), 'pos-sandbox-ci-recipe-'));
  const [sandboxPort, posPort] = [await freePort(), await freePort()];
  const bin = join(folder, 'bin');
  mkdirSync(bin);
  mkdirSync(join(folder, 'ci'));
  const script = (path: string, text: string) => {
    writeFileSync(path, text);
    chmodSync(path, 0o755);
  };
  script(join(bin, 'pos-sandbox'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'))} "$@"\n`);
  // The stand-in POS: the reference POS, bundled in the executable where the runner has no Node.
  const referencePos = noNode ? `${JSON.stringify(noNode.launcher)} reference-pos` : `${JSON.stringify(process.execPath)} ${JSON.stringify(join(PACKAGE_ROOT, 'bin', 'reference-pos.js'))}`;
  script(join(folder, 'ci', 'start-pos-test-build'), `#!/bin/sh\nexec ${referencePos} --port ${posPort} --sandbox http://127.0.0.1:${sandboxPort}${bug ? ` --bug ${bug}` : ''} > pos.log 2>&1\n`);
  const commands = recipe.commands.map((line) => line.replaceAll('127.0.0.1:4200', `127.0.0.1:${posPort}`)).join('\n');
  const env: Record<string, string> = { ...recipe.variables, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: folder, PORT: String(sandboxPort), GITHUB_SHA: '0123456789abcdef0123', CI_COMMIT_SHORT_SHA: '01234567' };
  if (noNode) {
    // The sum kept in the repository, the artefact where the team keeps it, and no Node anywhere on the PATH.
    copyFileSync(noNode.sum, join(folder, 'ci', basename(noNode.sum)));
    Object.assign(env, { PATH: noNode.path, POS_SANDBOX_FROM: noNode.url });
  }
  // Its own process group, so the POS it started in the background is stopped with it.
  const child = spawn('bash', ['-e', '-c', commands], { cwd: folder, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // The group is gone already.
  }
  let junit: string | undefined;
  try {
    junit = readFileSync(join(folder, 'build', 'certification', 'junit.xml'), 'utf8');
  } catch {
    junit = undefined;
  }
  return { code, output, junit };
}

/** What differs from a correct run (exit 0, every item a case, none failed) or a broken one (exit 1, AUTH-06 failed). */
function problems(run: { code: number; output: string; junit: string | undefined }, bug: string | undefined, partner: string): string[] {
  const found: string[] = [];
  const reached = /\b(node|nodejs|npm|npx|corepack): (command )?not found/.exec(run.output);
  if (reached) found.push(`a step reached for ${reached[1]}`);
  const expected = bug ? 1 : 0;
  if (run.code !== expected) found.push(`exit ${run.code}, not ${expected}`);
  if (run.junit === undefined) return [...found, 'no build/certification/junit.xml'];
  const cases = run.junit.match(/<testcase /g)?.length ?? 0;
  if (cases !== CHECKLIST.length) found.push(`${cases} cases in the JUnit, not ${CHECKLIST.length}`);
  const failed = [...run.junit.matchAll(/name="([A-Z]+-\d\d) [^"]*"[^>]*>\s*<failure/g)].map((match) => match[1]);
  if (!bug && failed.length > 0) found.push(`failed cases: ${failed.join(', ')}`);
  if (bug && !failed.includes('AUTH-06')) found.push(`AUTH-06 is not a failed case (failed: ${failed.join(', ') || 'none'})`);
  // The recipe's partner is the one the run played: the report names it, not the fixtures' demo-pos.
  if (!run.junit.includes(partner)) found.push(`the JUnit does not name the partner ${partner}`);
  return found;
}

async function main(): Promise<void> {
  const page = readFileSync(join(PACKAGE_ROOT, 'docs', 'ci.md'), 'utf8');
  const artefacts = mkdtempSync(join(tmpdir(), 'pos-sandbox-ci-artefact-'));
  const { setting, server } = await noNodeSetting(artefacts);
  let failures = 0;
  for (const recipe of recipes(page)) {
    // The correct POS and the broken one side by side: each run is mostly waiting on the POS.
    const outcomes = await Promise.all([undefined, 'exp-in-ms'].map(async (bug) => ({ bug, run: await runRecipe(recipe, bug, recipe.withoutNode ? setting : undefined) })));
    for (const { bug, run } of outcomes) {
      const found = problems(run, bug, recipe.variables.SANDBOX_PARTNER ?? 'demo-pos');
      const title = `${recipe.name}, ${bug ? `--bug ${bug}` : 'the correct reference POS'}`;
      if (found.length === 0) {
        process.stdout.write(`ok: ${title}: exit ${run.code}\n`);
        continue;
      }
      failures++;
      process.stdout.write(`FAILED: ${title}: ${found.join('; ')}\n${run.output}\n`);
    }
  }
  server.close();
  rmSync(artefacts, { recursive: true, force: true });
  process.exit(failures === 0 ? 0 : 1);
}

await main();
