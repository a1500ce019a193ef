/** A real `pos-sandbox serve --memory` on a free port, with a partner of its own, its error log kept by request id, its death noticed. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../server/version.js';

/** The partner the child is started as; tokens signed with this key pass its signature check. */
export const FUZZ_PARTNER = { name: 'fuzz-pos', key: 'FUZZ-ONLY-nonprod-key-4b8e1d0c9a7f4e2d8c6b5a3f1e0d9c8b' };

const BIN = join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js');
/** Lines of stderr kept: the stack of a crash is at the end. */
const STDERR_KEEP = 200;

export class ChildSandbox {
  readonly baseUrl: string;
  readonly port: number;
  /** The error-level log lines of each request id (the stack of a 500 is among them). */
  readonly errorsByRequest = new Map<string, string[]>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    baseUrl: string,
    /** The last lines the child wrote to stderr. */
    readonly stderr: string[],
  ) {
    this.baseUrl = baseUrl;
    this.port = Number(new URL(baseUrl).port);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  /** Starts `serve` and resolves once it listens. */
  static async start(options: { posOrderUrl: string }): Promise<ChildSandbox> {
    // A short journal: GET /_sandbox/journal.har renders all of it, and the fuzzer asks for it often.
    const args = [BIN, 'serve', '--memory', '--port', '0', '--log-level', 'error', '--journal-limit', '500', '--pos-order-url', options.posOrderUrl];
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_PARTNER: FUZZ_PARTNER.name, SANDBOX_NONPROD_KEY: FUZZ_PARTNER.key };
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // A child in a busy loop never runs its SIGTERM handler: it is killed outright.
    const killChild = () => child.kill('SIGKILL');
    process.once('exit', killChild);
    child.once('exit', () => process.off('exit', killChild));
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr.push(...chunk.toString().split('\n'));
      stderr.splice(0, Math.max(0, stderr.length - STDERR_KEEP));
    });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) {
          child.stdout!.off('data', onData);
          resolve(url);
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`pos-sandbox serve exited with ${code} before listening: ${stderr.join('\n')}`)));
    });
    const sandbox = new ChildSandbox(child, baseUrl, stderr);
    sandbox.readLog(child);
    return sandbox;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Resolves true when the child has exited within `ms`. */
  async diedWithin(ms: number): Promise<boolean> {
    if (!this.alive) return true;
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, ms))]);
    return !this.alive;
  }

  /** What killed it: the exit and the end of its stderr. */
  deathNote(): string {
    return `exit code ${this.exit?.code ?? '?'}${this.exit?.signal ? `, signal ${this.exit.signal}` : ''}\n${this.stderr.filter((line) => line.trim() !== '').slice(-40).join('\n')}`;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    if (!(await this.diedWithin(3000))) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** JSON log lines on stdout: those at error level (50+) are kept by request id. */
  private readLog(child: ChildProcess): void {
    let partial = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const all = text.split('\n');
      partial = all.pop() ?? '';
      for (const line of all) {
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { level?: number; requestId?: string };
          if ((entry.level ?? 0) < 50 || entry.requestId === undefined) continue;
          const list = this.errorsByRequest.get(entry.requestId) ?? [];
          list.push(line);
          this.errorsByRequest.set(entry.requestId, list);
        } catch {
          // Not a log line: the banner, or a line cut by the pipe.
        }
      }
    });
  }
}
