/**
 * A real PostgreSQL server for the tests that need one, started by the test setup itself: Debian's server binaries
 * (`initdb`, `pg_ctl`) make a cluster in a temp folder and run it on a free port, listening on 127.0.0.1 only.
 * jest's globalSetup starts one for the whole run, in the background (a cluster's initdb costs about 1.3 s, and ten
 * suites use one); each test file makes databases of its own on it (`testDatabase`), so no file sees another's rows.
 *
 * Where no server binaries are installed the PostgreSQL suites are skipped, but not where
 * POS_SANDBOX_REQUIRE_POSTGRES=1 (.ci/run sets it): there their absence fails them.
 *
 * PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (which Debian's package
 * creates) and its commands run as that user.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** Where `initdb` and `pg_ctl` are: POSTGRES_BIN_DIR, else the newest of Debian's /usr/lib/postgresql/N/bin. */
function findBinDir(): string | undefined {
  const named = process.env.POSTGRES_BIN_DIR;
  if (named) return existsSync(join(named, 'initdb')) ? named : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((entry) => /^\d+$/.test(entry) && existsSync(join(root, entry, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export const POSTGRES_BIN_DIR = findBinDir();
export const POSTGRES_REQUIRED = process.env.POS_SANDBOX_REQUIRE_POSTGRES === '1';
/** Whether the PostgreSQL suites run here: the server binaries are installed, or required (and their absence then fails). */
export const RUN_POSTGRES_TESTS = POSTGRES_BIN_DIR !== undefined || POSTGRES_REQUIRED;

export interface PostgresServer {
  /** The URL of the database `postgres` of this server (a superuser, no password: trust on loopback). */
  readonly url: string;
  /** A new empty database on this server, and its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server as a crash would (immediate: every connection cut), keeping its data, to start it again. */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** As root: the uid and gid of the `postgres` user, whom the commands run as. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('PostgreSQL refuses to run as root, and there is no `postgres` user to run it as (apt-get install -y postgresql makes one)');
  }
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...user, env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

/**
 * A run killed before its teardown (a timeout, Ctrl-C twice) would leave its server running for ever: a detached
 * shell waits for the process that started it to end, then stops the server and deletes its folder. After a normal
 * stop it finds nothing left to do.
 */
function watchOwner(pid: number, pgCtl: string, data: string, dir: string, asPostgres: boolean): void {
  const stop = `${asPostgres ? 'runuser -u postgres -- ' : ''}'${pgCtl}' -D '${data}' -m immediate stop`;
  const watcher = spawn('sh', ['-c', `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf '${dir}'`], { detached: true, stdio: 'ignore' });
  watcher.unref();
}

/**
 * `durable`: commits are written before they are acknowledged (synchronous_commit on), for a test that crashes the
 * server and counts what survived; the others leave it off, as a test's data never outlives its run.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  if (POSTGRES_BIN_DIR === undefined) {
    throw new Error('no PostgreSQL server binaries found (looked in /usr/lib/postgresql/N/bin); install them (apt-get install -y postgresql) or set POSTGRES_BIN_DIR');
  }
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-pg-'));
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, 'data');
  const bin = (name: string) => join(POSTGRES_BIN_DIR!, name);
  // --no-sync and fsync=off: a test's cluster never outlives an operating system crash, and syncing costs seconds;
  // a server's crash (halt) loses nothing with fsync off: what was written is in the system's cache.
  await run(bin('initdb'), ['-D', data, '-A', 'trust', '-U', 'sandbox', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], user);
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=${options.durable ? 'on' : 'off'} -c full_page_writes=off -c max_connections=200`;
  const start = () => run(bin('pg_ctl'), ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start'], user);
  await start();
  const url = `postgres://sandbox@127.0.0.1:${port}/postgres`;
  watchOwner(process.pid, bin('pg_ctl'), data, dir, user !== undefined);
  let stopped = false;
  return {
    url,
    async createDatabase(name: string): Promise<string> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return `postgres://sandbox@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    halt: () => run(bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user),
    restart: start,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await run(bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Set by jest's globalSetup: the file where the run's server says it is up (its URL) or why it did not start, which
 * every worker inherits. The server starts while the first test files run, most of which never use it: waiting
 * for it (1.5–1.8 s, initdb mostly) held up every run, and a developer's run of one file, before its first test.
 */
export const POSTGRES_ANNOUNCE_ENV = 'POS_SANDBOX_TEST_POSTGRES_FILE';

type Announcement = { url: string } | { error: string };

/**
 * Starts the run's server in the background and names, in the environment the workers inherit, the file it will
 * announce itself in; resolves with the server once it is up, or undefined if it could not start (said in the file).
 */
export function announceRunPostgres(): Promise<PostgresServer | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-pg-announce-'));
  const file = join(dir, 'server.json');
  process.env[POSTGRES_ANNOUNCE_ENV] = file;
  const announce = (said: Announcement) => {
    // Written whole (a rename): a worker reads either nothing or all of it.
    writeFileSync(`${file}.partial`, JSON.stringify(said));
    renameSync(`${file}.partial`, file);
  };
  return startPostgres().then(
    (server) => {
      announce({ url: server.url });
      return server;
    },
    (error: unknown) => {
      announce({ error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
}

/** The URL the run's server announced in `file`, once it has; rejects with why it did not start. */
function announcedUrl(file: string): Promise<string> {
  const read = (): Announcement | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Announcement;
    } catch {
      return undefined;
    }
  };
  return new Promise((resolve, reject) => {
    const settle = (said: Announcement) => {
      watcher.close();
      clearTimeout(timer);
      if ('url' in said) resolve(said.url);
      else reject(new Error(`the run's PostgreSQL server did not start: ${said.error}`));
    };
    // Watched before it is read, so an announcement between the two is not missed.
    const watcher = watch(dirname(file), () => {
      const said = read();
      if (said !== undefined) settle(said);
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`the run's PostgreSQL server said nothing in 60 s (${file})`));
    }, 60_000);
    timer.unref();
    const said = read();
    if (said !== undefined) settle(said);
  });
}

let ownServer: Promise<PostgresServer> | undefined;
let databases = 0;
let runServer: Promise<string> | undefined;

/**
 * A new empty database of this test file, on the run's server (waiting for it to be up); a file run without jest's
 * globalSetup starts a server of its own, stopped when the process exits.
 */
export async function testDatabase(name: string): Promise<string> {
  // A worker runs several files, each with this module afresh: a random part keeps their names apart.
  const unique = `${name}_${++databases}_${randomBytes(6).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const announced = process.env[POSTGRES_ANNOUNCE_ENV];
  if (announced !== undefined) {
    runServer ??= announcedUrl(announced);
    const shared = await runServer;
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(unique)}`);
    } finally {
      await client.end();
    }
    const url = new URL(shared);
    url.pathname = `/${unique}`;
    return url.toString();
  }
  ownServer ??= startPostgres().then((server) => {
    process.once('exit', () => void server.stop());
    return server;
  });
  return (await ownServer).createDatabase(unique);
}
