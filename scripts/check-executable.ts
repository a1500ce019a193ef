/** npm run check:executable: the release artefact as a CI machine without Node runs it: checked against its sum and unpacked, then run with no node on the PATH and an empty HOME (serve, reference-pos, certify, verify-report), its unpack cache tampered with, and the machine checks of its launcher. */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKLIST } from '../certification-checklist/items/all-items.js';
import { PACKAGE_ROOT, VERSION } from '../server/version.js';
import { freePort, run, startLongRunning, stopAll } from './package-check/processes.js';

const NAME = `pos-sandbox-${VERSION}-${process.platform}-${process.arch}`;
const folder = mkdtempSync(join(tmpdir(), 'pos-sandbox-executable-check-'));
const home = join(folder, 'home');
/** The launcher, as the docs have a job run it. */
const launcher = join(folder, NAME, 'pos-sandbox');
/** No `node` anywhere on it: an empty folder. */
const env = { PATH: join(folder, 'empty-bin'), HOME: home };
const cache = join(home, '.cache', 'pos-sandbox');
const REPLACED = /^pos-sandbox: the unpacked files in .* are not the ones this executable carries \(.*\); unpacking them again\.\n$/;

function step(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}

function fail(message: string): never {
  throw new Error(message);
}

/** A small script standing in for a system tool, first on the PATH. */
function fakeTool(bin: string, name: string, text: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), `#!/bin/sh\n${text}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** Milliseconds from spawning `command` to the first 200 of its /_sandbox/health, then it is stopped. */
async function startTime(command: string, args: string[], childEnv: Record<string, string>): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const starting = startLongRunning(command, [...args, '--memory', '--port', String(port)], { cwd: folder, env: childEnv }, /listening on/);
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const took = performance.now() - began;
  await starting;
  await stopAll();
  return took;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `--version` as a job runs it; its stdout must be the version alone, and its stderr `said` (nothing by default). */
async function version(title: string, childEnv: Record<string, string> = env, said: RegExp = /^$/): Promise<void> {
  const result = await run(launcher, ['--version'], { cwd: folder, env: childEnv });
  if (result.code !== 0 || result.stdout !== `${VERSION}\n` || !said.test(result.stderr)) {
    fail(`${title}: --version exited ${result.code}, printed ${JSON.stringify(result.stdout)}, said ${JSON.stringify(result.stderr)}`);
  }
  process.stdout.write(`ok: ${title}\n`);
}

async function checkArtefact(): Promise<void> {
  step('npm run build:executable, then the artefact checked against its sum and unpacked');
  execFileSync('npm', ['run', '-s', 'build:executable'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'inherit', 'ignore'] });
  for (const file of [`${NAME}.tar.gz`, `${NAME}.tar.gz.sha256`]) copyFileSync(join(PACKAGE_ROOT, 'build', file), join(folder, file));
  execFileSync('sha256sum', ['-c', `${NAME}.tar.gz.sha256`], { cwd: folder, stdio: 'inherit' });
  execFileSync('tar', ['-xzf', `${NAME}.tar.gz`], { cwd: folder });
  mkdirSync(env.PATH);
  mkdirSync(home);
}

async function checkCache(): Promise<string> {
  step('the unpack cache: used only when it holds exactly the files the executable carries');
  await version('the first start, with no node on the PATH and an empty HOME');
  const [unpackedAs] = readdirSync(cache);
  if (unpackedAs === undefined || !unpackedAs.startsWith(`${VERSION}-`)) fail(`the first start left ${JSON.stringify(unpackedAs)} in ${cache}`);
  const cli = join(cache, unpackedAs, 'dist', 'server', 'cli.js');
  const planted = "process.stdout.write('PLANTED\\n');\n";
  // First in the module's body: it would run before the CLI reads its arguments.
  writeFileSync(cli, planted + readFileSync(cli, 'utf8'));
  await version('a line planted in the cached CLI never runs, and the cache is replaced with one line said', env, REPLACED);
  await version('the replaced cache is used again, with nothing said');
  // A folder planted under the name read out of the executable, before any start.
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(join(cache, unpackedAs, 'dist', 'server'), { recursive: true });
  writeFileSync(join(cache, unpackedAs, 'dist', 'server', 'cli.js'), planted);
  writeFileSync(join(cache, unpackedAs, '.complete'), '');
  await version('a pre-planted cache folder never runs, and is replaced with one line said', env, REPLACED);
  writeFileSync(join(cache, unpackedAs, 'dist', 'extra.js'), planted);
  await version('a file added to the cache is one too many', env, REPLACED);
  chmodSync(join(cache, unpackedAs, 'dist'), 0o777);
  await version('a cached folder others may write in is replaced', env, REPLACED);
  mkdirSync(join(cache, unpackedAs, 'dist', 'node_modules', 'pino'), { recursive: true });
  await version('an empty folder added to the cache is one too many', env, REPLACED);
  writeFileSync(join(cache, unpackedAs, 'dist', 'x\npos-sandbox: a forged line\u001b[2K'), '');
  await version("a planted file's name is shown escaped, on the one line", env, /^pos-sandbox: the unpacked files in .* \(dist\/x\\x0apos-sandbox: a forged line\\x1b\[2K is not one of its files\); unpacking them again\.\n$/);
  // A package planted above the cache, where Node would look for one the executable does not carry.
  mkdirSync(join(cache, 'node_modules', 'pg'), { recursive: true });
  writeFileSync(join(cache, 'node_modules', 'pg', 'package.json'), '{"name":"pg","main":"index.js"}');
  writeFileSync(join(cache, 'node_modules', 'pg', 'index.js'), planted);
  const store = await run(launcher, ['serve', '--memory', '--store', 'postgres://u:p@127.0.0.1:1/db', '--port', '0'], { cwd: folder, env });
  if (store.code !== 2 || store.stdout !== '' || store.stderr !== 'pos-sandbox: --store (PostgreSQL) is not in the standalone executable: run the npm package with Node 20.19 or later for it (docs/install.md).\n') {
    fail(`serve --store exited ${store.code}, printed ${JSON.stringify(store.stdout)}, said ${JSON.stringify(store.stderr)}`);
  }
  process.stdout.write(`ok: serve --store is refused in one line, and a pg planted above the cache never runs\n`);
  rmSync(cache, { recursive: true, force: true });
  await Promise.all([version('two first starts at once: the first of the pair'), version('two first starts at once: the second of the pair')]);
  // With no HOME, the cache is the temporary folder's, one per user (docs/install.md).
  const temporary = join(folder, 'tmp');
  mkdirSync(temporary);
  await version('with HOME unset', { PATH: env.PATH, TMPDIR: temporary });
  const uid = process.getuid?.() ?? 'user';
  if (!readdirSync(join(temporary, `pos-sandbox-${uid}`)).includes(unpackedAs)) fail(`with HOME unset, nothing was unpacked in ${join(temporary, `pos-sandbox-${uid}`)}`);
  writeFileSync(join(folder, 'a-file'), '');
  // The temporary folder's own taken by another (a link stands for it, as root may write anywhere): a folder of this start's own, gone after.
  const squatted = join(folder, 'squatted');
  mkdirSync(join(squatted, 'elsewhere'), { recursive: true });
  symlinkSync(join(squatted, 'elsewhere'), join(squatted, `pos-sandbox-${uid}`));
  await version('with HOME unset and the temporary folder\'s own taken', { PATH: env.PATH, TMPDIR: squatted }, /^pos-sandbox: .*pos-sandbox-\d+ is not a folder of yours alone.*: unpacking into .*, for this start only\.\n$/);
  const left = readdirSync(squatted).filter((name) => name !== 'elsewhere' && name !== `pos-sandbox-${uid}`);
  if (left.length > 0 || readdirSync(join(squatted, 'elsewhere')).length > 0) fail(`a start of its own left ${JSON.stringify(left)} behind`);
  await version('with POS_SANDBOX_CACHE under a file, the temporary folder\'s own instead', { ...env, POS_SANDBOX_CACHE: join(folder, 'a-file', 'cache'), TMPDIR: temporary });
  // Nowhere to write (a file where the folders would be, which stops root as well): one line, exit 2.
  const nowhere = join(folder, 'a-file');
  const stuck = await run(launcher, ['--version'], { cwd: folder, env: { PATH: env.PATH, POS_SANDBOX_CACHE: join(nowhere, 'cache'), TMPDIR: nowhere } });
  if (stuck.code !== 2 || stuck.stdout !== '' || !/^pos-sandbox: cannot unpack its files \(.+\); set POS_SANDBOX_CACHE to a folder of yours it may write in\.\n$/.test(stuck.stderr)) {
    fail(`with no folder to write in, --version exited ${stuck.code}, printed ${JSON.stringify(stuck.stdout)}, said ${JSON.stringify(stuck.stderr)}`);
  }
  process.stdout.write(`ok: with no folder to write in: ${stuck.stderr}`);
  return unpackedAs;
}

async function checkLauncher(): Promise<void> {
  step('the launcher: one line where the executable cannot run');
  const refusals: Array<[string, string, RegExp]> = [
    ['uname', 'case "$1" in -s) echo Linux;; -m) echo aarch64;; esac', /^pos-sandbox: this executable is for Linux on x86_64, and this machine is aarch64; run the npm package/],
    ['uname', 'case "$1" in -s) echo Darwin;; -m) echo x86_64;; esac', /^pos-sandbox: this executable is for Linux on x86_64, and this machine runs Darwin;/],
    ['getconf', 'echo glibc 2.17', /^pos-sandbox: this executable needs glibc 2.28 or later, and this machine has glibc 2.17;/],
  ];
  for (const [tool, text, said] of refusals) {
    const bin = mkdtempSync(join(folder, 'fake-'));
    fakeTool(bin, tool, text);
    const result = await run(launcher, ['--version'], { cwd: folder, env: { ...env, PATH: bin } });
    if (result.code !== 126 || result.stdout !== '' || !said.test(result.stderr) || result.stderr.split('\n').length !== 2) {
      fail(`with a ${tool} that says "${text}", the launcher exited ${result.code}, printed ${JSON.stringify(result.stdout)}, said ${JSON.stringify(result.stderr)}`);
    }
    process.stdout.write(`ok: ${result.stderr}`);
  }
  await version('the launcher with the machine\'s own uname and getconf', { ...env, PATH: '/usr/bin:/bin' });
}

async function checkCommands(): Promise<void> {
  step('pos-sandbox serve: a refund answered 200 with no finding');
  const sandboxPort = await freePort();
  await startLongRunning(launcher, ['serve', '--memory', '--port', String(sandboxPort)], { cwd: folder, env }, /-d '/).catch((error: Error) => fail(error.message));
  const token = ((await (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string }).token;
  const refund = await fetch(`http://127.0.0.1:${sandboxPort}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-key': 'any', 'x-api-version': '2', 'content-type': 'application/json' },
    body: '{"ExternalId":"POS-STD-1001"}',
  });
  if (`${refund.status} ${refund.headers.get('x-sandbox-findings')}` !== '200 0') fail(`the refund was answered ${refund.status} with ${refund.headers.get('x-sandbox-findings')} findings`);
  await stopAll();

  step('pos-sandbox --help names reference-pos, which this executable alone has');
  const help = await run(launcher, ['--help'], { cwd: folder, env });
  if (help.code !== 0 || !help.stdout.includes('pos-sandbox reference-pos [options] runs the bundled reference POS')) fail(`--help exited ${help.code} without naming reference-pos:\n${help.stdout}`);

  step('pos-sandbox reference-pos, then pos-sandbox certify against it');
  const [posPort, certifyPort] = [await freePort(), await freePort()];
  await startLongRunning(launcher, ['reference-pos', '--port', String(posPort), '--sandbox', `http://127.0.0.1:${certifyPort}`], { cwd: folder, env }, /driver:/).catch((error: Error) => fail(error.message));
  const reports = join(folder, 'certification');
  const certify = await run(launcher, ['certify', '--driver', `http://127.0.0.1:${posPort}`, '--port', String(certifyPort), '--capabilities', 'refund,hub,kiosk', '--report-dir', reports, '--window-ms', '300'], { cwd: folder, env });
  await stopAll();
  if (certify.code !== 0) fail(`certify exited ${certify.code}:\n${certify.stdout}${certify.stderr}`);
  const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
  const cases = junit.match(/<testcase /g)?.length ?? 0;
  const failures = junit.match(/<failure /g)?.length ?? 0;
  if (cases !== CHECKLIST.length || failures !== 0) fail(`junit.xml holds ${cases} cases (not ${CHECKLIST.length}) and ${failures} failures`);

  step('pos-sandbox verify-report --rejudge');
  const verified = await run(launcher, ['verify-report', '--rejudge', reports], { cwd: folder, env });
  if (verified.code !== 0) fail(`verify-report exited ${verified.code}:\n${verified.stdout}${verified.stderr}`);
}

async function measure(unpackedAs: string): Promise<void> {
  step('sizes; --version warm (median of 9, in turns with node bin/pos-sandbox.js --version); the start to the first health answer (median of 5, alternating with node bin/pos-sandbox.js serve)');
  // A warm start reads the cache and writes nothing: the same file, not one written again.
  const cachedCli = () => statSync(join(cache, unpackedAs, 'dist', 'server', 'cli.js'));
  const before = cachedCli();
  // In turns with the package's own --version, so that a loaded machine slows both: the ratio is what is judged.
  const versions: number[] = [];
  const nodeVersions: number[] = [];
  for (let round = 0; round < 9; round++) {
    let began = performance.now();
    await version(`--version warm, round ${round + 1}`);
    versions.push(performance.now() - began);
    began = performance.now();
    await run(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), '--version'], { cwd: folder, env: { PATH: process.env.PATH ?? '', HOME: home } });
    nodeVersions.push(performance.now() - began);
  }
  if (cachedCli().ino !== before.ino || cachedCli().mtimeMs !== before.mtimeMs) fail('a warm start wrote its files again');
  const versionRatio = median(versions.map((took, i) => took / nodeVersions[i]!));
  // A ceiling well above a warm start's usual ratio and well below that of a start that unpacks every time.
  if (versionRatio > 3) fail(`--version warm took ${versionRatio.toFixed(2)}× node bin/pos-sandbox.js --version (median of 9 pairs), over 3×`);
  const own: number[] = [];
  const node: number[] = [];
  for (let round = 0; round < 5; round++) {
    own.push(await startTime(launcher, ['serve'], env));
    node.push(await startTime(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'serve'], { PATH: process.env.PATH ?? '', HOME: home }));
  }
  const unpacked = readdirSync(join(cache, unpackedAs), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const unpackedBytes = unpacked.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  process.stdout.write(
    [
      `artefact ${mb(statSync(join(folder, `${NAME}.tar.gz`)).size)}, executable ${mb(statSync(join(folder, NAME, `pos-sandbox-${process.platform}-${process.arch}`)).size)}, unpacked cache ${mb(unpackedBytes)} in ${unpacked.length} files`,
      `--version warm ${median(versions).toFixed(0)} ms, node bin/pos-sandbox.js --version ${median(nodeVersions).toFixed(0)} ms (${versionRatio.toFixed(2)}×); start ${median(own).toFixed(0)} ms, node bin/pos-sandbox.js ${median(node).toFixed(0)} ms (${(median(own) / median(node)).toFixed(2)}×), ${new Date().toISOString().slice(0, 10)}`,
    ].join('\n') + '\n',
  );
}

try {
  await checkArtefact();
  const unpackedAs = await checkCache();
  await checkLauncher();
  await checkCommands();
  await measure(unpackedAs);
  process.stdout.write('\nThe executable works from its artefact with no Node on the PATH.\n');
} catch (error) {
  process.stdout.write(`\nFAILED: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
  rmSync(folder, { recursive: true, force: true });
}
