/** npm run check:ci-recipes: the recipes of docs/ci.md run as a runner would, against the correct reference POS (exit 0) and --bug exp-in-ms (exit 1, AUTH-06 failing). */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CHECKLIST } from '../certification-checklist/items/all-items.js';
import { PACKAGE_ROOT } from '../server/version.js';
import { freePort } from './package-check/processes.js';

interface Recipe {
  name: string;
  commands: string[];
  /** The variables the recipe sets for its commands (a step's env, a job's variables); secrets as `${{ secrets.X }}`. */
  variables: Record<string, string>;
}

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
  // A secret is the runner's to give: the check gives the test key; GitLab's is a project variable, named in a comment.
  const secrets = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).map(([name, value]) => [name, /\$\{\{\s*secrets\./.test(value) ? TEST_KEY : value]));
  return [
    { name: 'GitHub Actions', commands: github.filter(installed), variables: secrets(Object.assign({}, ...steps.map((step) => step.env ?? {}))) },
    { name: 'GitLab CI', commands: gitlab.filter(installed), variables: { SANDBOX_NONPROD_KEY: TEST_KEY, ...Object.assign({}, ...jobs.map((job) => job.variables ?? {})) } },
  ];
}

/** Runs a recipe's commands with bash in a fresh folder; answers the exit code and the JUnit it left, if any. */
async function runRecipe(recipe: Recipe, bug: string | undefined): Promise<{ code: number; output: string; junit: string | undefined }> {
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
  script(
    join(folder, 'ci', 'start-pos-test-build'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(PACKAGE_ROOT, 'bin', 'reference-pos.js'))} --port ${posPort} --sandbox http://127.0.0.1:${sandboxPort}${bug ? ` --bug ${bug}` : ''} > pos.log 2>&1\n`,
  );
  const commands = recipe.commands.map((line) => line.replaceAll('127.0.0.1:4200', `127.0.0.1:${posPort}`)).join('\n');
  const env = { ...recipe.variables, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: folder, PORT: String(sandboxPort), GITHUB_SHA: '0123456789abcdef0123', CI_COMMIT_SHORT_SHA: '01234567' };
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
function problems(run: { code: number; junit: string | undefined }, bug: string | undefined, partner: string): string[] {
  const found: string[] = [];
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
  let failures = 0;
  for (const recipe of recipes(page)) {
    // The correct POS and the broken one side by side: each run is mostly waiting on the POS.
    const outcomes = await Promise.all([undefined, 'exp-in-ms'].map(async (bug) => ({ bug, run: await runRecipe(recipe, bug) })));
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
  process.exit(failures === 0 ? 0 : 1);
}

await main();
