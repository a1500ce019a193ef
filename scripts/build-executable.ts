/** npm run build:executable [-- --out FILE]: Node's own binary with the sandbox injected as a single executable application (docs/install.md); --store's PostgreSQL packages are not in it. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--out');
const OUT = resolve(at > 0 ? process.argv[at + 1]! : join(ROOT, 'build', `pos-sandbox-${process.platform}-${process.arch}`));
/** The fuse postject flips in Node's binary so that it runs the injected application. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Every file under `dir` (relative to the root), the source maps of dist/ left out. */
function filesUnder(dir: string): string[] {
  const full = join(ROOT, dir);
  if (!statSync(full).isDirectory()) return [dir];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The packages `names` need at run time, found as Node would find them from the root's node_modules. */
function packagesOf(names: string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    // A package nested under its dependant wins over the hoisted one, as Node's resolution has it.
    const candidates = [join(from, 'node_modules', name), join(ROOT, 'node_modules', name)];
    const dir = candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
    if (!dir) throw new Error(`${name}, needed by ${relative(ROOT, from) || 'the sandbox'}, is not installed: run npm ci`);
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir);
  };
  for (const name of names) visit(name, ROOT);
  return [...found].flatMap((dir) => filesUnder(relative(ROOT, dir)));
}

function payload(version: string): Buffer {
  const paths = [
    'package.json',
    ...['dist', 'fixtures', 'menu-template', 'order-model', 'openapi', 'db-migrations', 'server/faults/fault-rule.schema.json'].flatMap(filesUnder),
    // The validators compiled at build time (dist/validators/) require ajv's runtime helpers.
    ...packagesOf(['pino', 'pino-pretty', 'ajv']),
  ];
  const bodies = paths.map((path) => readFileSync(join(ROOT, path)));
  const digest = createHash('sha256');
  paths.forEach((path, i) => digest.update(path).update('\0').update(bodies[i]!));
  const files = paths.map((path, i) => ({ path, size: bodies[i]!.length, mode: statSync(join(ROOT, path)).mode & 0o777 }));
  const header = Buffer.from(JSON.stringify({ version, digest: digest.digest('hex').slice(0, 16), files }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, ...bodies]);
}

async function main(): Promise<void> {
  // dist/ as the package has it (build.js is plain JavaScript, run as the npm scripts run it).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.js')], { stdio: 'inherit' });
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const work = mkdtempSync(join(tmpdir(), 'pos-sandbox-executable-'));
  try {
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
    copyFileSync(process.execPath, OUT);
    // postject's own notes on Node's ELF sections ("Can't find string offset for section name '.note'") are not ours.
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'postject', 'dist', 'cli.js'), OUT, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE], { stdio: 'ignore' });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${relative(process.cwd(), OUT) || OUT}: ${(statSync(OUT).size / 1024 / 1024).toFixed(1)} MB, Node ${process.version} with pos-sandbox ${version} inside\n`);
}

await main();
