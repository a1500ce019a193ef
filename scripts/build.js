#!/usr/bin/env node
/**
 * `npm run build`: compiles what the bins run (server/cli.ts, reference-pos/cli.ts and everything they import) into
 * dist/, so a CLI start loads plain JavaScript instead of compiling TypeScript through tsx (about 1 s per start).
 * Run by `prepare` (npm install, npm ci), by jest's globalSetup (tests never spawn stale output) and before the
 * npm scripts that start a bin.
 *
 * One bundle per bin with code splitting: each subcommand stays its own lazily imported chunk (server/cli.ts imports
 * only the one it runs), and a start reads a few files rather than a hundred. The packages it uses are bundled too,
 * but for pino's (see below). The output is ESM like the sources; server/version.ts finds the package root by
 * looking for package.json, as a bundled module's import.meta.url is its chunk's, not its source's.
 *
 * It also writes dist/dashboard/ (the dashboard's page, style and script, for the browser) and dist/validators/: the schemas the bins compile at start, compiled once here by ajv
 * (scripts/build-validators.ts, server/fixtures/compiled-schemas.ts).
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

/** Builds dist/; resolves once it is written. Safe while a process runs from dist/, if the sources did not change. */
export async function buildDist() {
  const { outputFiles } = await build({
    absWorkingDir: ROOT,
    // The checklist's worker (server/checklist/checklist-worker.ts) is a file of its own: a Worker starts from a path.
    entryPoints: ['server/cli.ts', 'reference-pos/cli.ts', 'scripts/build-validators.ts', 'server/checklist/checklist-worker.ts'],
    outdir: DIST,
    outbase: '.',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages are bundled too, but for pino and its transports, which start worker threads from their own files:
    // resolving and wrapping a few hundred CommonJS files of node_modules cost about 90 ms of every start
    // (453 → 363 ms to the first health answer, bench/cold-start.ts, 2026-11-23).
    // pg and node-pg-migrate too: loaded only by --store (a dynamic import), and node-pg-migrate loads its
    // migration files and TypeScript loader (jiti) from its own folder.
    external: ['pino', 'pino-pretty', 'pg', 'node-pg-migrate'],
    // Bundled CommonJS code calls require for Node's own modules; an ES module has none of its own.
    banner: { js: "import { createRequire as __sandboxCreateRequire } from 'node:module'; const require = __sandboxCreateRequire(import.meta.url);" },
    // Stack traces can point at the TypeScript sources (node --enable-source-maps).
    sourcemap: true,
    logLevel: 'warning',
    write: false,
    // The bins load the validators this build writes to dist/validators/ (server/fixtures/compiled-schemas.ts).
    define: { 'process.env.POS_SANDBOX_BUILT_VALIDATORS': '"dist"' },
  });
  // Only changed files are written, each whole (a rename), and files no longer produced are removed afterwards: a
  // sandbox started from dist/ imports its subcommand's chunk later, and must not find it half written or gone
  // because a test run or `npm start` in the same checkout built again.
  const produced = new Set();
  const write = (path, contents) => {
    produced.add(path);
    if (existsSync(path) && readFileSync(path).equals(contents)) return;
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, contents);
    renameSync(partial, path);
  };
  for (const file of outputFiles) write(file.path, file.contents);
  // The dashboard (server/control/dashboard-routes.ts serves dist/dashboard/): one script for the browser, with
  // Preact bundled in, and the page and its style as they are. Nothing is fetched from elsewhere at run time.
  const dashboard = await build({
    absWorkingDir: ROOT,
    entryPoints: { app: 'dashboard/main.tsx' },
    outdir: join(DIST, 'dashboard'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
    write: false,
  });
  for (const file of dashboard.outputFiles) write(file.path, file.contents);
  for (const file of ['index.html', 'app.css']) write(join(DIST, 'dashboard', file), readFileSync(join(ROOT, 'dashboard', file)));
  // Compiled by the code just built, from the schemas as they are now. A validator's file is named by a digest of
  // its schema and options, so one already there is kept, unless the code that compiles them changed: ajv, its
  // options of code generation, or the schemas written in TypeScript. Its digest is written last, once every
  // validator is, so a build stopped half way compiles them all again.
  const compiler = join(DIST, 'scripts', 'build-validators.js');
  const stamp = join(DIST, 'validators', 'compiled-by');
  const compiledBy = createHash('sha256').update(readFileSync(compiler)).digest('hex');
  const same = existsSync(stamp) && readFileSync(stamp, 'utf8') === compiledBy;
  const { builtValidators } = await import(`${pathToFileURL(compiler).href}?${Date.now()}`);
  for (const { file, code } of builtValidators((name) => same && existsSync(join(DIST, 'validators', name)))) {
    if (code === undefined) produced.add(join(DIST, 'validators', file));
    else write(join(DIST, 'validators', file), Buffer.from(code));
  }
  write(stamp, Buffer.from(compiledBy));
  for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !produced.has(path) && !path.endsWith('.partial')) rmSync(path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDist();
