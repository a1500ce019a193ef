/** A real `pos-sandbox serve --memory`, `prism proxy` before it and a tiny POS order endpoint; every child killed however the check ends. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../server/version.js';

const SANDBOX_BIN = join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js');
const PRISM_BIN = join(PACKAGE_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
export const OPENAPI_FILE = join(PACKAGE_ROOT, 'openapi', 'openapi.json');
/** How long a child has to say it listens. */
const START_TIMEOUT_MS = 60_000;
/** How long a child has to exit after SIGTERM before it gets SIGKILL. */
const KILL_GRACE_MS = 3_000;

const children: ChildProcess[] = [];
// A signal ends the check through process.exit, so the exit handler runs.
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.once(signal, () => process.exit(code));

/** The first port from `from` to `to` that 127.0.0.1 can listen on now, not one of `taken`. */
export async function freePort(from: number, to: number, taken: number[] = []): Promise<number> {
  for (let port = from; port <= to; port++) {
    if (taken.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createNetServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from} to ${to}`);
}

/** Spawns `node argv` and resolves once its output matches `ready`; rejects with its output if it exits or takes too long. */
function startChild(label: string, argv: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });
}

/** `pos-sandbox serve --memory`, fresh, with the fixture partner (SANDBOX_* of this shell left out) and orders sent to `posOrderUrl`. */
export function startSandbox(port: number, posOrderUrl: string) {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const args = [SANDBOX_BIN, 'serve', '--memory', '--port', String(port), '--log-level', 'error', '--pos-order-url', posOrderUrl];
  return startChild('pos-sandbox serve', args, env, /listening on http:\/\//);
}

/** `prism proxy openapi/openapi.json <sandbox> --errors=false`: answers are passed on as the sandbox gave them, with sl-violations. */
export function startPrism(port: number, upstream: string) {
  const args = [PRISM_BIN, 'proxy', OPENAPI_FILE, upstream, '--errors=false', '--port', String(port), '--host', '127.0.0.1', '--cors=false'];
  return startChild('prism proxy', args, { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, /Prism is listening on/);
}

/** Order `prism-reject` answered REJECTED, every other with ExternalId `POS-<OrderId>` and no Status. */
export function startPosOrderEndpoint(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      let orderId = 'unknown';
      try {
        orderId = String((JSON.parse(text) as { OrderId?: unknown }).OrderId ?? 'unknown');
      } catch {
        // Not an order: answered like one all the same; the sandbox's journal shows what it sent.
      }
      const reply = orderId === 'prism-reject' ? { ExternalId: `POS-${orderId}`, Status: 'REJECTED', Reason: 'out of stock' } : { ExternalId: `POS-${orderId}` };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** SIGTERM, then SIGKILL after a grace: resolves once every child has exited. */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}
