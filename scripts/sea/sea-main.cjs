'use strict';
/** The start of the standalone executable: the package's files, carried as one asset, written once to a cache folder named by their digest, and its CLI imported from there. */
const sea = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { pathToFileURL } = require('node:url');

/** The payload: a 4-byte length, a JSON header ({ version, digest, files: [{ path, size, mode }] }), the files' bytes. */
function readPayload() {
  const payload = Buffer.from(sea.getAsset('payload'));
  const length = payload.readUInt32BE(0);
  const header = JSON.parse(payload.subarray(4, 4 + length).toString('utf8'));
  return { header, body: payload.subarray(4 + length) };
}

/** Where the files go: POS_SANDBOX_CACHE, else the user's cache folder, else the temporary folder. */
function cacheBase() {
  if (process.env.POS_SANDBOX_CACHE) return process.env.POS_SANDBOX_CACHE;
  const home = process.env.XDG_CACHE_HOME || (os.homedir() ? path.join(os.homedir(), '.cache') : undefined);
  return path.join(home || os.tmpdir(), 'pos-sandbox');
}

/** The code run is read from the cache, so it must be this user's alone. */
function ownFolder(dir) {
  try {
    const stat = fs.statSync(dir);
    return stat.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The folder holding the files, written whole before it is used: two starts at once each write their own, one wins. */
function unpacked() {
  const { header, body } = readPayload();
  let base = cacheBase();
  const root = () => path.join(base, `${header.version}-${header.digest}`);
  const ready = () => ownFolder(base) && ownFolder(root()) && fs.existsSync(path.join(root(), '.complete'));
  if (ready()) return root();
  try {
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  } catch {
    base = path.join(os.tmpdir(), `pos-sandbox-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`);
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  }
  // A cache folder that is not ours alone is not used: the files go to a new private folder, for this start only.
  if (!ownFolder(base)) base = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-sandbox-'));
  if (ready()) return root();
  const staging = `${root()}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  let at = 0;
  for (const file of header.files) {
    const target = path.join(staging, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, body.subarray(at, at + file.size), { mode: file.mode });
    at += file.size;
  }
  fs.writeFileSync(path.join(staging, '.complete'), '');
  try {
    fs.renameSync(staging, root());
  } catch {
    // Another start got there first; a folder that is not ours alone is left, and this start runs from its own.
    if (!ready()) return staging;
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return root();
}

const root = unpacked();
let entry = path.join(root, 'dist', 'server', 'cli.js');
if (process.argv[2] === 'reference-pos') {
  entry = path.join(root, 'dist', 'reference-pos', 'cli.js');
  process.argv.splice(2, 1);
}
// The default loader imports the CLI's ES modules; Node 20's one notice that it is experimental is not ours.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  if (!String(warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) emitWarning.call(process, warning, ...rest);
};
new vm.Script(`import(${JSON.stringify(pathToFileURL(entry).href)})`, { filename: path.join(root, 'sea-start.js'), importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER })
  .runInThisContext()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
