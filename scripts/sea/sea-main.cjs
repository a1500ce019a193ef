'use strict';
/** The start of the standalone executable: the package's files, carried as one asset, unpacked to a cache folder named by their digest and checked against the asset at every start, and its CLI imported from there. */
const sea = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { pathToFileURL } = require('node:url');

const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** The payload: a 4-byte length, a JSON header ({ version, digest, files: [{ path, size, mode }] }), the files' bytes. */
function readPayload() {
  const payload = Buffer.from(sea.getAsset('payload'));
  const length = payload.readUInt32BE(0);
  const header = JSON.parse(payload.subarray(4, 4 + length).toString('utf8'));
  const body = payload.subarray(4 + length);
  let at = 0;
  const files = new Map();
  for (const file of header.files) {
    files.set(file.path, { mode: file.mode, bytes: body.subarray(at, at + file.size) });
    at += file.size;
  }
  return { name: `${header.version}-${header.digest}`, files };
}

/** The folder for a start with no cache of its own: the temporary folder's, one per user. */
const privateBase = () => path.join(os.tmpdir(), `pos-sandbox-${uid ?? 'user'}`);

/** Where the files go: POS_SANDBOX_CACHE, else $XDG_CACHE_HOME, else $HOME/.cache, else the temporary folder. */
function cacheBase() {
  if (process.env.POS_SANDBOX_CACHE) return process.env.POS_SANDBOX_CACHE;
  if (process.env.XDG_CACHE_HOME) return path.join(process.env.XDG_CACHE_HOME, 'pos-sandbox');
  if (process.env.HOME) return path.join(process.env.HOME, '.cache', 'pos-sandbox');
  return privateBase();
}

/** Whether a stat is this user's and no one else may write in it. */
const ours = (stat) => (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;

function ownFolder(dir) {
  try {
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && ours(stat);
  } catch {
    return false;
  }
}

/** Why the folder `root` is not exactly the carried files (each one of them, its bytes, nothing else, no link, all ours alone), or '' when it is. */
function difference(root, files) {
  let entries;
  try {
    if (!ownFolder(root)) return `${root} is not yours alone`;
    entries = fs.readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return 'it cannot be read';
  }
  let matched = 0;
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, full);
    if (entry.isDirectory()) {
      if (!ownFolder(full)) return `${relative} is not yours alone`;
      continue;
    }
    const file = files.get(relative);
    if (!file) return `${relative} is not one of its files`;
    if (!entry.isFile()) return `${relative} is not a plain file`;
    let fd;
    try {
      fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || !ours(stat)) return `${relative} is not yours alone`;
      if (stat.size !== file.bytes.length) return `${relative} differs`;
      const bytes = Buffer.allocUnsafe(file.bytes.length);
      if (fs.readSync(fd, bytes, 0, bytes.length, 0) !== bytes.length || !bytes.equals(file.bytes)) return `${relative} differs`;
    } catch {
      return `${relative} cannot be read`;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    matched++;
  }
  return matched === files.size ? '' : `${files.size - matched} of its files are missing`;
}

/** A folder of this user's alone to unpack into: the cache's, else the private one, else a new one for this start. */
function writableBase() {
  for (const base of [cacheBase(), privateBase()]) {
    try {
      fs.mkdirSync(base, { recursive: true, mode: 0o700 });
      if (ownFolder(base)) return base;
    } catch {
      // Not writable here: the next one.
    }
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pos-sandbox-'));
}

/** The files written whole into a staging folder, then put in place of whatever held the name: two starts at once each write their own, one wins. */
function unpackInto(base, name, files) {
  const root = path.join(base, name);
  const staging = `${root}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  for (const [relative, file] of files) {
    const target = path.join(staging, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    fs.writeFileSync(target, file.bytes, { mode: file.mode });
  }
  // Another start may have put a good copy in place meanwhile: it is used; a bad one is moved out of the way first.
  if (fs.lstatSync(root, { throwIfNoEntry: false }) !== undefined) {
    if (difference(root, files) === '') return discard(staging, root);
    const stale = `${root}.stale-${process.pid}`;
    try {
      fs.renameSync(root, stale);
      fs.rmSync(stale, { recursive: true, force: true });
    } catch {
      // Moved by another start, or files another user planted that are not ours to delete: out of the way all the same.
    }
  }
  try {
    fs.renameSync(staging, root);
  } catch {
    // Another start got there first: its copy if it matches, else this start's own.
    return difference(root, files) === '' ? discard(staging, root) : staging;
  }
  return root;
}

/** `root`, once the staging folder no longer needed is gone. */
function discard(staging, root) {
  fs.rmSync(staging, { recursive: true, force: true });
  return root;
}

/** The folder to run from: the cache when it holds exactly the carried files; else unpacked afresh, with a line when a cache was there and did not match. */
function unpacked() {
  const { name, files } = readPayload();
  const base = writableBase();
  const cached = path.join(base, name);
  if (fs.lstatSync(cached, { throwIfNoEntry: false }) !== undefined) {
    const why = difference(cached, files);
    if (why === '') return cached;
    process.stderr.write(`pos-sandbox: the unpacked files in ${cached} are not the ones this executable carries (${why}); unpacking them again.\n`);
  }
  return unpackInto(base, name, files);
}

let root;
try {
  root = unpacked();
} catch (error) {
  process.stderr.write(`pos-sandbox: cannot unpack its files (${error.message}); set POS_SANDBOX_CACHE to a folder of yours it may write in.\n`);
  process.exit(2);
}
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
