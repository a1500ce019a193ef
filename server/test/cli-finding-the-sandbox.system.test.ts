/**
 * How a command finds the sandbox, and what ends it: a URL where nothing answers, a server that is not the sandbox,
 * a health answer of another shape, a reader that stops early, a sandbox that stops under a --follow. One sandbox
 * process for the file, stopped by the last test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { closedPort, closeServers, listen } from './live.js';
import { cli, serve, stopServers } from './processes.js';
import { refundAt, streamOpen as streamOpenAt } from './sandbox-calls.js';

let sandboxUrl: string;
let sandbox: ChildProcess;
const run = (args: string[], env: Record<string, string> = {}) => cli(args, { SANDBOX_URL: sandboxUrl, NO_COLOR: '1', ...env });

const streamOpen = () => streamOpenAt(sandboxUrl);
const refund = (externalId: string) => refundAt(sandboxUrl, externalId);

beforeAll(async () => {
  const started = await serve([]);
  sandboxUrl = started.baseUrl;
  sandbox = started.child;
});

afterAll(async () => {
  stopServers();
  await closeServers();
});

describe('finding the sandbox', () => {
  it('says once that nothing answers at the URL, and how to point at the right one, exit 1', async () => {
    const port = await closedPort();
    const result = await run(['status'], { SANDBOX_URL: `http://127.0.0.1:${port}` });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `pos-sandbox: cannot reach the sandbox at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port} (is \`pos-sandbox serve\` running there? point at it with --sandbox URL or SANDBOX_URL)\n`,
    });
  });

  it('takes --sandbox over SANDBOX_URL, and a trailing slash is no matter', async () => {
    expect((await run(['status', '--json', '--sandbox', `${sandboxUrl}/`], { SANDBOX_URL: 'http://127.0.0.1:1' })).code).toBe(0);
  });

  it('refuses a sandbox URL that is not http(s), naming where it came from, exit 2', async () => {
    expect(await run(['refunds', 'list'], { SANDBOX_URL: 'localhost:4100' })).toEqual({
      code: 2,
      stdout: '',
      stderr: "pos-sandbox: SANDBOX_URL must be the http(s) address of the sandbox, such as http://127.0.0.1:4100, got 'localhost:4100'\n",
    });
  });

  it('says when the server at the URL is not the sandbox', async () => {
    const notSandbox = await listen((_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    expect(await run(['faults', 'list', '--sandbox', notSandbox])).toEqual({
      code: 1,
      stdout: '',
      stderr: `pos-sandbox: GET ${notSandbox}/_sandbox/faults answered 200 with text/html, not the sandbox's JSON: is ${notSandbox} the sandbox?\n`,
    });
  });

  it('says what a health answer of another shape does say, and names one that is no health at all', async () => {
    const partial = await listen((_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"9.0.0","journal":null,"delivery":{}}'));
    const said = await run(['status', '--sandbox', partial]);
    expect({ code: said.code, stderr: said.stderr }).toEqual({ code: 0, stderr: '' });
    expect(said.stdout).toContain('pos-sandbox 9.0.0, up (not said) s');
    expect(said.stdout).toContain('journal:             (not said) of at most (not said) entries');
    const list = await listen((_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    expect(await run(['status', '--sandbox', list])).toEqual({ code: 1, stdout: '', stderr: `pos-sandbox: GET ${list}/_sandbox/health answered JSON that is not the sandbox's health: is ${list} the sandbox?\n` });
  });
});

describe('a reader that stops early', () => {
  it('ends the command quietly, exit 0, rather than with an EPIPE stack trace (| head -5)', async () => {
    for (let n = 0; n < 5; n++) expect(await refund(`CLI-PIPE-${n}`)).toBe(200);
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'journal', 'tail', '-n', '50'], { env: { PATH: process.env.PATH ?? '', SANDBOX_URL: sandboxUrl, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reading end closed before the command writes its first line: every write of it meets a closed pipe.
    child.stdout!.destroy();
    const [code] = (await once(child, 'exit')) as [number];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

// Last: it stops the sandbox every other test uses.
describe('journal tail --follow when the sandbox stops', () => {
  it('ends with exit 1, saying the sandbox cannot be reached at its URL, not the socket\'s own word', async () => {
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'pos-sandbox.js'), 'journal', 'tail', '--follow', '-n', '0'], { env: { PATH: process.env.PATH ?? '', SANDBOX_URL: sandboxUrl } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await streamOpen();
    sandbox.kill('SIGKILL');
    expect(await exited).toBe(1);
    // Taken up again at once, the stream meets the sandbox gone or still dying: the cause is the kernel's word of
    // the moment (connect ECONNREFUSED, connect ECONNRESET, read ECONNRESET, write ECONNRESET, all seen); the line around it is
    // ours.
    expect(stderr).toMatch(new RegExp(`^pos-sandbox: cannot reach the sandbox at ${sandboxUrl}: (connect|read|write) E[A-Z]+[^\\n]* \\(is \`pos-sandbox serve\` running there\\? point at it with --sandbox URL or SANDBOX_URL\\)\\n$`));
    expect(stderr).not.toContain('aborted');
  });
});
