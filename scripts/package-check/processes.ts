/** The processes check-package.ts runs: commands that end (their output gathered) and servers that stay up until stopAll. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

const running: ChildProcess[] = [];

/** Runs a command to its end; never rejects (a command that cannot start ends with code 127 and the reason). */
export function run(command: string, args: string[], options: SpawnOptions): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ code: 127, stdout, stderr: `${stderr}${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Starts a server and resolves once its output matches `ready`; rejects with its output if it exits or takes 30 s. */
export function startLongRunning(command: string, args: string[], options: SpawnOptions, ready: RegExp): Promise<void> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} did not say it was listening within 30 s:\n${output}`)), 30_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.on('error', (error) => reject(new Error(`${command} could not start: ${error.message}`)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`));
    });
  });
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    running.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
