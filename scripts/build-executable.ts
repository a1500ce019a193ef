/** npm run build:executable [-- --out FILE]: Node's own binary with the sandbox injected as a single executable application, and the release artefact that carries it with its checksum (docs/install.md). */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { payloadFiles } from './sea/payload-files.js';

const ROOT = resolve(import.meta.dirname, '..');
const TARGET = `${process.platform}-${process.arch}`;
const at = process.argv.indexOf('--out');
const OUT = resolve(at > 0 ? process.argv[at + 1]! : join(ROOT, 'build', `pos-sandbox-${TARGET}`));
/** The fuse postject flips in Node's binary so that it runs the injected application. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The payload: a 4-byte length, a JSON header ({ version, digest, files: [{ path, size, mode }] }), the files' bytes. */
function payload(version: string): Buffer {
  const entries = payloadFiles(ROOT);
  const bodies = entries.map(({ path, body }) => body ?? readFileSync(join(ROOT, path)));
  const digest = createHash('sha256');
  entries.forEach(({ path }, i) => digest.update(path).update('\0').update(bodies[i]!));
  // Never writable by group or others once unpacked, whatever the umask of the machine that built it.
  const files = entries.map(({ path, body }, i) => ({ path, size: bodies[i]!.length, mode: body ? 0o644 : statSync(join(ROOT, path)).mode & 0o755 }));
  const header = Buffer.from(JSON.stringify({ version, digest: digest.digest('hex').slice(0, 16), files }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, ...bodies]);
}

/** Node's binary without its symbol tables (a sixth of its size, none of them read when it runs), when binutils' strip is here. */
function copyNode(to: string): void {
  copyFileSync(process.execPath, to);
  chmodSync(to, 0o755);
  try {
    execFileSync('strip', [to], { stdio: 'ignore' });
  } catch {
    process.stdout.write('strip (binutils) is not here: the executable keeps Node\'s symbol tables, about 13 MB more\n');
  }
}

/** The executable at OUT: Node's binary, the payload injected as an asset. */
function buildExecutable(version: string, work: string): void {
  writeFileSync(join(work, 'payload.bin'), payload(version));
  const config = {
    main: join(ROOT, 'scripts', 'sea', 'sea-main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    assets: { payload: join(work, 'payload.bin') },
  };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
  execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
  mkdirSync(dirname(OUT), { recursive: true });
  rmSync(OUT, { force: true });
  copyNode(OUT);
  // postject's own notes on Node's ELF sections ("Can't find string offset for section name '.note'") are not ours.
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js'), OUT, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE], { stdio: 'ignore' });
}

/**
 * `pos-sandbox-<version>-<target>.tar.gz` beside the executable: one folder holding the executable and the launcher
 * that checks the machine first, and its `.sha256` as sha256sum writes it. The same inputs give the same bytes.
 */
function buildArtefact(version: string, work: string): string {
  const name = `pos-sandbox-${version}-${TARGET}`;
  const folder = join(work, name);
  mkdirSync(folder);
  // The launcher runs the executable by this name, whatever --out called it.
  copyFileSync(OUT, join(folder, `pos-sandbox-${TARGET}`));
  copyFileSync(join(ROOT, 'scripts', 'sea', 'pos-sandbox.sh'), join(folder, 'pos-sandbox'));
  chmodSync(join(folder, 'pos-sandbox'), 0o755);
  chmodSync(join(folder, `pos-sandbox-${TARGET}`), 0o755);
  const tar = execFileSync('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '--format=ustar', '-C', work, '-cf', '-', name], { maxBuffer: 1 << 30 });
  const artefact = join(dirname(OUT), `${name}.tar.gz`);
  const gzipped = gzipSync(tar, { level: 9 });
  writeFileSync(artefact, gzipped);
  writeFileSync(`${artefact}.sha256`, `${createHash('sha256').update(gzipped).digest('hex')}  ${basename(artefact)}\n`);
  return artefact;
}

async function main(): Promise<void> {
  // dist/ as the package has it (build.js is plain JavaScript, run as the npm scripts run it).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.js')], { stdio: 'inherit' });
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const work = mkdtempSync(join(tmpdir(), 'pos-sandbox-executable-'));
  try {
    buildExecutable(version, work);
    const artefact = buildArtefact(version, work);
    const mb = (path: string) => `${(statSync(path).size / 1024 / 1024).toFixed(1)} MB`;
    const shown = (path: string) => relative(process.cwd(), path) || path;
    process.stdout.write(`${shown(OUT)}: ${mb(OUT)}, Node ${process.version} with pos-sandbox ${version} inside\n`);
    process.stdout.write(`${shown(artefact)}: ${mb(artefact)}, checksum in ${basename(artefact)}.sha256\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
