/** The pos-sandbox command as real processes, for the tests that run it as a user would. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../version.js';

const run = promisify(execFile);
const BIN = join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js');
const BASE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
const running: ChildProcess[] = [];

/** Kills every server a test started; call it in afterEach. */
export function stopServers(): void {
  for (const child of running.splice(0)) child.kill('SIGKILL');
}

/**
 * Starts `serve` (in memory unless `args` name --data or --store) and resolves once the banner is printed,
 * with the base URL, everything printed, and the process.
 */
export async function serve(args: string[], env: Record<string, string> = {}): Promise<{ baseUrl: string; banner: string; child: ChildProcess }> {
  const storage = args.includes('--data') || args.includes('--store') ? [] : ['--memory'];
  const { url, output, child } = await startUntilReady([BIN, 'serve', ...storage, ...args], { ...BASE_ENV, PORT: '0', ...env }, `-d '`);
  return { baseUrl: url, banner: output(), child };
}

/** Starts `serve --partners …` (a hosted sandbox) and resolves once its banner is printed. */
export async function serveHosted(args: string[], env: Record<string, string> = {}): Promise<{ baseUrl: string; banner: string; child: ChildProcess }> {
  const { url, output, child } = await startUntilReady([BIN, 'serve', ...args], { ...BASE_ENV, PORT: '0', ...env }, 'docs/hosting.md says the rest');
  return { baseUrl: url, banner: output(), child };
}

/** Spawns a server and resolves once it has printed its URL and `lastLine`; rejects with its stderr if it exits first. */
function startUntilReady(argv: string[], env: Record<string, string>, lastLine: string): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, argv, { env });
  running.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes(lastLine)) resolve({ url, output: () => out, child });
    });
    child.on('exit', (code) => reject(new Error(`${argv[0]} ${argv[1]} exited with ${code}: ${err}`)));
  });
}

/** Runs one pos-sandbox command to its end; `input` is written to its standard input. */
export async function cli(args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const running = run(process.execPath, [BIN, ...args], { env: { ...BASE_ENV, ...env } });
  running.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const REFERENCE_POS = join(PACKAGE_ROOT, 'bin', 'reference-pos.js');

/** Starts the reference POS as `npm run reference-pos` does and resolves with its base URL once it listens. */
export async function referencePos(args: string[]): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  return startUntilReady([REFERENCE_POS, '--port', '0', ...args], BASE_ENV, 'bugs:');
}
