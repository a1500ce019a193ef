'use strict';
/** The start of the standalone executable: the package's files, carried as one asset, unpacked to a cache folder named by their digest and checked against the asset at every start, and its CLI imported from there. */
const sea = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { pathToFileURL } = require('node:url');

const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** One line on stderr, its control characters escaped: a planted file's name can neither add lines nor move the cursor. */
function say(line) {
  // eslint-disable-next-line no-control-regex -- the control characters are what it escapes
  process.stderr.write(`pos-sandbox: ${line.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}\n`);
}

/** The payload: a 4-byte length, a JSON header ({ version, digest, files: [{ path, size, mode }] }), the files' bytes. */
function readPayload() {
  const payload = Buffer.from(sea.getAsset('payload'));
  const length = payload.readUInt32BE(0);
  const header = JSON.parse(payload.subarray(4, 4 + length).toString('utf8'));
  const body = payload.subarray(4 + length);
  let at = 0;
  const files = new Map();
  const folders = new Set();
  for (const file of header.files) {
    files.set(file.path, { mode: file.mode, bytes: body.subarray(at, at + file.size) });
    at += file.size;
    for (let folder = path.dirname(file.path); folder !== '.'; folder = path.dirname(folder)) folders.add(folder);
  }
  return { name: `${header.version}-${header.digest}`, files, folders };
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

/** A folder, not a link to one, of this user's alone. */
function ownFolder(dir) {
  try {
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && ours(stat);
  } catch {
    return false;
  }
}

/** Why the folder `root` is not exactly the carried files (each one of them, its bytes, no file or folder more, no link, all ours alone), or '' when it is. */
function difference(root, { files, folders }) {
  if (!ownFolder(root)) return fs.lstatSync(root).isSymbolicLink() ? 'it is a link' : 'it is not a folder of yours alone';
  let entries;
  try {
    entries = fs.readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return 'a folder in it cannot be read';
  }
  let matched = 0;
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, full);
    if (entry.isDirectory()) {
      if (!folders.has(relative)) return `${relative} is not one of its folders`;
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

/** Removes what it can of `target`: files another user planted may not be ours to delete, and are out of the way all the same. */
function remove(target) {
  try {
    fs.rmSync(target, { recursive: true, force: true });
  } catch {
    // Left where it is.
  }
}

/** The files written whole into a new staging folder, then put in place of whatever held the name: two starts at once each write their own, and one wins. */
function unpackInto(base, payload) {
  const root = path.join(base, payload.name);
  // Names no one can plant in advance (mkdtemp's), so nothing found there can block the start.
  const staging = fs.mkdtempSync(`${root}.partial-`);
  for (const [relative, file] of payload.files) {
    const target = path.join(staging, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    fs.writeFileSync(target, file.bytes, { mode: file.mode });
  }
  const held = fs.lstatSync(root, { throwIfNoEntry: false });
  if (held !== undefined) {
    // Another start may have put a good copy in place meanwhile: it is used; a bad one is moved out of the way first.
    if (difference(root, payload) === '') return discard(staging, root);
    if (held.isDirectory()) {
      const stale = fs.mkdtempSync(`${root}.stale-`);
      fs.renameSync(root, stale);
      remove(stale);
    } else {
      fs.unlinkSync(root);
    }
  }
  try {
    fs.renameSync(staging, root);
  } catch {
    // Another start got there first: its copy if it matches, else this start's own, gone when it ends.
    if (difference(root, payload) === '') return discard(staging, root);
    process.on('exit', () => remove(staging));
    return staging;
  }
  return root;
}

/** `root`, once the staging folder no longer needed is gone. */
function discard(staging, root) {
  remove(staging);
  return root;
}

/**
 * The folder to run from: the cache when it holds exactly the carried files, else unpacked afresh there, with a line
 * when a cache was there and did not match; where the cache's base and the temporary folder's are both unusable, a
 * folder of this start's own, said in a line and removed when it ends.
 */
function unpacked() {
  const payload = readPayload();
  const refused = [];
  for (const base of [cacheBase(), privateBase()]) {
    try {
      fs.mkdirSync(base, { recursive: true, mode: 0o700 });
    } catch {
      // Checked below.
    }
    if (!ownFolder(base)) {
      refused.push(`${base} is not a folder of yours alone`);
      continue;
    }
    const root = path.join(base, payload.name);
    if (fs.lstatSync(root, { throwIfNoEntry: false }) !== undefined) {
      const why = difference(root, payload);
      if (why === '') return root;
      say(`the unpacked files in ${root} are not the ones this executable carries (${why}); unpacking them again.`);
    }
    try {
      return unpackInto(base, payload);
    } catch (error) {
      refused.push(`${base}: ${error.message}`);
    }
  }
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-sandbox-'));
  process.on('exit', () => remove(own));
  say(`${refused.join('; ')}: unpacking into ${own}, for this start only.`);
  return unpackInto(own, payload);
}

if (process.argv.slice(2).some((arg) => arg === '--store' || arg.startsWith('--store='))) {
  say('--store (PostgreSQL) is not in the standalone executable: run the npm package with Node 20.19 or later for it (docs/install.md).');
  process.exit(2);
}

let root;
try {
  root = unpacked();
} catch (error) {
  say(`cannot unpack its files (${error.message}); set POS_SANDBOX_CACHE to a folder of yours it may write in.`);
  process.exit(2);
}
// The CLI names its own commands as this executable has them, not a clone's npx and npm run.
process.env.POS_SANDBOX_STANDALONE = '1';
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
    say(`cannot load ${entry}: ${String(error.message).split('\n')[0]}`);
    process.exitCode = 1;
  });
