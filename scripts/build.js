#!/usr/bin/env node
/** `npm run build`: the bins and all they import bundled into dist/, a chunk per subcommand; run by prepare, by jest's globalSetup and before every script that starts a bin. */
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
    // Bundled too, but for pino (its transports start workers from their own files) and --store's pg and node-pg-migrate, loaded only when asked for.
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
  // Only changed files are written, each whole, and stale ones removed after: a running sandbox may still import a chunk.
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
  // The dashboard: one script with Preact bundled, the page and its style as they are; nothing fetched from elsewhere.
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
  // Validators named by a digest of schema and options are kept unless the compiler changed; its digest is written last, so a build stopped half way compiles all again.
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
