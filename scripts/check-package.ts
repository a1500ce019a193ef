/** npm run check:package: the package as a partner installs it, away from this clone: npm pack, a global install into a fresh prefix, then serve, the reference POS and a whole checklist from an empty folder. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT, VERSION } from '../server/version.js';
import { freePort, run, startLongRunning, stopAll } from './package-check/processes.js';

const keep = process.argv.includes('--keep');
const root = mkdtempSync(join(tmpdir(), 'pos-sandbox-package-'));
const prefix = join(root, 'global');
const work = join(root, 'a-partner-folder');
mkdirSync(work);

function step(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}

function fail(message: string): never {
  throw new Error(message);
}

async function main(): Promise<void> {
  step('npm pack');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', root], { cwd: PACKAGE_ROOT });
  if (packed.code !== 0) fail(`npm pack exited ${packed.code}:\n${packed.stderr}`);
  interface Packed {
    filename: string;
    files: Array<{ path: string }>;
    size: number;
    unpackedSize: number;
  }
  const [pack] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Packed[];
  if (pack === undefined) fail(`npm pack --json printed no package:\n${packed.stdout}`);
  const { filename, files, size, unpackedSize } = pack;
  const tarball = join(root, filename.replace(/^@[^/]+\//, '').replace('/', '-'));
  process.stdout.write(`${tarball}: ${files.length} files, ${(size / 1024).toFixed(0)} kB packed, ${(unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked\n`);
  const stray = files.map((file) => file.path).filter((path) => /\.test\.ts$|^server\/.*\.ts$|^\.scratch|^node_modules|^\.sandbox/.test(path));
  if (stray.length > 0) fail(`the tarball holds files a user does not need: ${stray.join(', ')}`);

  step(`npm install -g ${filename} (prefix ${prefix})`);
  const installed = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], { cwd: work });
  if (installed.code !== 0) fail(`npm install -g exited ${installed.code}:\n${installed.stderr}`);
  process.stdout.write(installed.stdout);
  // Only the installed package's bins and node itself: nothing of the clone on the PATH, and the clone is not the cwd.
  const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${join(process.execPath, '..')}:/usr/bin:/bin`, SANDBOX_URL: '', NO_COLOR: '1' };
  const cli = (args: string[]) => run('pos-sandbox', args, { cwd: work, env });

  step('pos-sandbox --version, --help');
  const version = await cli(['--version']);
  if (version.stdout.trim() !== VERSION) fail(`pos-sandbox --version printed '${version.stdout.trim()}', not ${VERSION}`);
  const help = await cli(['--help']);
  if (help.code !== 0 || !help.stdout.includes('checklist')) fail(`pos-sandbox --help exited ${help.code}:\n${help.stdout}${help.stderr}`);
  if ((help.stdout + (await cli(['serve', '--help'])).stdout).includes(PACKAGE_ROOT)) fail(`the installed package's help names the clone at ${PACKAGE_ROOT}`);
  process.stdout.write('ok\n');

  step('pos-sandbox serve, pos-sandbox-reference-pos');
  const [sandboxPort, posPort] = [await freePort(), await freePort()];
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const posUrl = `http://127.0.0.1:${posPort}`;
  await startLongRunning('pos-sandbox', ['serve', '--port', String(sandboxPort), '--pos-order-url', `${posUrl}/order`], { cwd: work, env }, /listening on/i);
  await startLongRunning('pos-sandbox-reference-pos', ['--port', String(posPort), '--sandbox', sandboxUrl], { cwd: work, env }, /listening on/i);
  const health = await fetch(`${sandboxUrl}/_sandbox/health`);
  if (health.status !== 200) fail(`GET /_sandbox/health answered ${health.status}`);
  process.stdout.write(`sandbox ${sandboxUrl}, reference POS ${posUrl}\n`);

  step('pos-sandbox checklist --driver (the bundled reference POS)');
  const reports = join(work, 'reports');
  const checklist = await cli(['checklist', '--sandbox', sandboxUrl, '--driver', posUrl, '--pos-order-url', `${posUrl}/order`, '--capabilities', 'refund,hub,kiosk', '--report-dir', reports]);
  process.stdout.write(checklist.stdout.split('\n').slice(-6).join('\n'));
  if (checklist.code !== 0) fail(`pos-sandbox checklist exited ${checklist.code}:\n${checklist.stdout}${checklist.stderr}`);
  const [runDir] = readdirSync(reports);
  if (runDir === undefined || !statSync(join(reports, runDir, 'report.html')).isFile()) fail(`no report folder with report.html in ${reports}`);

  step('pos-sandbox verify-report');
  const verified = await cli(['verify-report', join(reports, runDir)]);
  process.stdout.write(verified.stdout);
  if (verified.code !== 0) fail(`pos-sandbox verify-report exited ${verified.code}:\n${verified.stdout}${verified.stderr}`);
  // The data file went into the partner's folder, not into the installed package.
  if (!statSync(join(work, '.sandbox', 'db.json')).isFile()) fail(`serve wrote no .sandbox/db.json in ${work}`);
  process.stdout.write('\nThe installed package works with no clone in reach.\n');
}

try {
  await main();
} catch (error) {
  process.stderr.write(`\ncheck:package failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
  if (keep) process.stdout.write(`kept ${root}\n`);
  else rmSync(root, { recursive: true, force: true });
}
