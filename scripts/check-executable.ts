/** npm run check:executable: the executable as a CI machine without Node runs it, with no node on the PATH and a HOME of its own: serve, reference-pos, certify, verify-report, and a swapped cache file that must not run. */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKLIST } from '../certification-checklist/items/all-items.js';
import { PACKAGE_ROOT, VERSION } from '../server/version.js';
import { freePort, run, startLongRunning, stopAll } from './package-check/processes.js';

const folder = mkdtempSync(join(tmpdir(), 'pos-sandbox-executable-check-'));
const executable = join(folder, 'pos-sandbox');
/** No `node` anywhere on it: an empty folder. */
const env = { PATH: join(folder, 'empty-bin'), HOME: folder };

function step(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}

function fail(message: string): never {
  throw new Error(message);
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

async function main(): Promise<void> {
  step('npm run build:executable');
  execFileSync('npm', ['run', '-s', 'build:executable'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'inherit', 'ignore'] });
  copyFileSync(join(PACKAGE_ROOT, 'build', `pos-sandbox-${process.platform}-${process.arch}`), executable);
  mkdirSync(env.PATH);
  const size = statSync(executable).size;

  step('pos-sandbox --version, with no node on the PATH');
  const version = await run(executable, ['--version'], { cwd: folder, env });
  if (version.stdout.trim() !== VERSION) fail(`--version printed ${JSON.stringify(version.stdout)} (exit ${version.code}): ${version.stderr}`);

  step('a cache folder another user could write in is not run from');
  const cache = join(folder, '.cache', 'pos-sandbox');
  const [unpackedAs] = readdirSync(cache).filter((name) => name.startsWith(`${VERSION}-`));
  if (unpackedAs === undefined) fail(`the first start left nothing in ${cache}`);
  // As if planted: the CLI swapped, and the folder open to everyone.
  writeFileSync(join(cache, unpackedAs, 'dist', 'server', 'cli.js'), "console.log('PLANTED');\n");
  chmodSync(join(cache, unpackedAs), 0o777);
  const planted = await run(executable, ['--version'], { cwd: folder, env });
  if (planted.stdout.trim() !== VERSION) fail(`with a planted cache folder, --version printed ${JSON.stringify(planted.stdout)}`);
  // Every start would unpack again beside the planted folder: gone, so the starts measured below read the cache.
  rmSync(cache, { recursive: true, force: true });

  step('pos-sandbox serve: a refund answered 200 with no finding');
  const sandboxPort = await freePort();
  await startLongRunning(executable, ['serve', '--memory', '--port', String(sandboxPort)], { cwd: folder, env }, /-d '/).catch((error: Error) => fail(error.message));
  const health = await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/health`);
  if (!health.ok) fail(`health answered ${health.status}`);
  const token = ((await (await fetch(`http://127.0.0.1:${sandboxPort}/_sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"locationId":"loc-std-001"}' })).json()) as { token: string }).token;
  const refund = await fetch(`http://127.0.0.1:${sandboxPort}/v2/order/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'x-api-key': 'any', 'x-api-version': '2', 'content-type': 'application/json' },
    body: '{"ExternalId":"POS-STD-1001"}',
  });
  if (`${refund.status} ${refund.headers.get('x-sandbox-findings')}` !== '200 0') fail(`the refund was answered ${refund.status} with ${refund.headers.get('x-sandbox-findings')} findings`);
  await stopAll();

  step('pos-sandbox reference-pos, then pos-sandbox certify against it');
  const [posPort, certifyPort] = [await freePort(), await freePort()];
  await startLongRunning(executable, ['reference-pos', '--port', String(posPort), '--sandbox', `http://127.0.0.1:${certifyPort}`], { cwd: folder, env }, /driver:/).catch((error: Error) => fail(error.message));
  const reports = join(folder, 'certification');
  const certify = await run(executable, ['certify', '--driver', `http://127.0.0.1:${posPort}`, '--port', String(certifyPort), '--capabilities', 'refund,hub,kiosk', '--report-dir', reports, '--window-ms', '300'], { cwd: folder, env });
  await stopAll();
  if (certify.code !== 0) fail(`certify exited ${certify.code}:\n${certify.stdout}${certify.stderr}`);
  const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
  const cases = junit.match(/<testcase /g)?.length ?? 0;
  const failures = junit.match(/<failure /g)?.length ?? 0;
  if (cases !== CHECKLIST.length || failures !== 0) fail(`junit.xml holds ${cases} cases (not ${CHECKLIST.length}) and ${failures} failures`);

  step('pos-sandbox verify-report --rejudge');
  const verified = await run(executable, ['verify-report', '--rejudge', reports], { cwd: folder, env });
  if (verified.code !== 0) fail(`verify-report exited ${verified.code}:\n${verified.stdout}${verified.stderr}`);

  step('size, and the start to the first health answer (median of 5, alternating with node bin/pos-sandbox.js serve)');
  const own: number[] = [];
  const node: number[] = [];
  for (let round = 0; round < 5; round++) {
    own.push(await startTime(executable, ['serve'], env));
    node.push(await startTime(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'serve'], { PATH: process.env.PATH ?? '', HOME: folder }));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  process.stdout.write(`${(size / 1024 / 1024).toFixed(1)} MB; start ${median(own).toFixed(0)} ms, node bin/pos-sandbox.js ${median(node).toFixed(0)} ms (${(median(own) / median(node)).toFixed(2)}×), ${new Date().toISOString().slice(0, 10)}\n`);
  process.stdout.write('\nThe executable works with no Node on the PATH.\n');
}

try {
  await main();
} catch (error) {
  process.stdout.write(`\nFAILED: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
  rmSync(folder, { recursive: true, force: true });
}
