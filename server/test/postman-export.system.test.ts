/**
 * `pos-sandbox export postman` as a user runs it: the real CLI writes the files, newman (Postman's own runner)
 * runs them against a real `serve`, and the sandbox's journal says what arrived.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PACKAGE_ROOT } from '../version.js';
import { cli, serve, stopServers } from './processes.js';
import { closedPort } from './loopback.js';
import { allPages } from './all-pages.js';

jest.setTimeout(30_000);

const COLLECTION = 'pos-sandbox.postman_collection.json';
const ENVIRONMENT = 'pos-sandbox.postman_environment.json';
const OWN = { SANDBOX_PARTNER: 'acme-pos', SANDBOX_NONPROD_KEY: 'acme-own-nonprod-key-for-postman-0001' };

interface Execution {
  item: { name: string };
  response?: { code: number; header: Array<{ key: string; value: string }> };
  assertions?: Array<{ assertion: string; error?: { message: string } }>;
}
interface NewmanReport {
  run: { stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } }; executions: Execution[]; failures: Array<{ source: { name: string }; error: { test?: string; message: string } }> };
}

const dirs: string[] = [];
let pos: Server | undefined;
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'postman-export-'));
  dirs.push(dir);
  return dir;
};

let runner: ChildProcess | undefined;
let runs = 0;

/** Runs a collection with newman (in newman-runner.js, one process for the file) and reads its JSON report. */
async function newman(dir: string, folder?: string): Promise<{ code: number; report: NewmanReport }> {
  runner ??= fork(join(PACKAGE_ROOT, 'server', 'test', 'newman-runner.js'), [], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const id = ++runs;
  const reportFile = join(dir, `report-${id}.json`);
  const child = runner;
  const answer = await new Promise<{ code: number; error?: string }>((resolve, reject) => {
    const onMessage = (message: { id: number; code: number; error?: string }) => {
      if (message.id !== id) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`newman-runner.js exited with ${code}`)));
    child.send({ id, collection: join(dir, COLLECTION), environment: join(dir, ENVIRONMENT), reportFile, ...(folder ? { folder } : {}) });
  });
  if (answer.error !== undefined) throw new Error(`newman could not run ${dir}: ${answer.error}`);
  return { code: answer.code, report: JSON.parse(readFileSync(reportFile, 'utf8')) as NewmanReport };
}

const requestNames = (dir: string): string[] =>
  (JSON.parse(readFileSync(join(dir, COLLECTION), 'utf8')) as { item: Array<{ item: Array<{ name: string }> }> }).item.flatMap((folder) => folder.item.map((item) => item.name));
const execution = (report: NewmanReport, prefix: string) => report.run.executions.find((e) => e.item.name.startsWith(prefix))!;
const header = (e: Execution, name: string) => e.response?.header.find((h) => h.key.toLowerCase() === name)?.value;

/** A POS that takes every order and leaves its status for later, so the collection's status call decides it. */
async function posWithoutStatus(): Promise<string> {
  let orders = 0;
  const server = (pos = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ExternalId: `STANDIN-${++orders}` })));
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/order`;
}

afterAll(() => {
  runner?.kill();
  stopServers();
  pos?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('pos-sandbox export postman', () => {
  it('writes the two files into --out, says where, and how to import them', async () => {
    const dir = join(tempDir(), 'made', 'for', 'it');
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const result = await cli(['export', 'postman', '--out', dir, '--sandbox', closed]);
    expect(result).toEqual({
      code: 0,
      stderr: `note: the sandbox at ${closed} did not answer (ECONNREFUSED), so the partner could not be checked against it; the environment is demo-pos's\n`,
      stdout: [
        `Wrote the Postman collection and environment for the sandbox at ${closed}:`,
        `  ${dir}/${COLLECTION}`,
        `  ${dir}/${ENVIRONMENT}`,
        'Import both into Postman (File → Import), choose the environment "POS Sandbox",',
        'then open a request and Send (or run the collection: it starts by resetting the sandbox to its fixtures).',
        '',
      ].join('\n'),
    });
    expect(JSON.parse(readFileSync(join(dir, COLLECTION), 'utf8')).info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    // The environment holds the key: its owner alone may read it.
    expect(statSync(join(dir, ENVIRONMENT)).mode & 0o777).toBe(0o600);
  });

  it("refuses, writing nothing, when the running sandbox plays another partner or another key: every call would be a 401", async () => {
    const sandbox = await serve([], OWN);
    const dir = tempDir();
    const fixturePartner = await cli(['export', 'postman', '--sandbox', sandbox.baseUrl, '--out', dir]);
    expect({ code: fixturePartner.code, stderr: fixturePartner.stderr }).toEqual({
      code: 2,
      stderr: `pos-sandbox: the sandbox at ${sandbox.baseUrl} plays partner '${OWN.SANDBOX_PARTNER}', but the export would sign its tokens as 'demo-pos': every call would be refused 401; set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY as the sandbox was started with, and export again\n`,
    });
    const otherKey = await cli(['export', 'postman', '--sandbox', sandbox.baseUrl, '--out', dir], { SANDBOX_PARTNER: OWN.SANDBOX_PARTNER, SANDBOX_NONPROD_KEY: 'not-the-key-the-sandbox-was-started-with-000' });
    expect(otherKey.stderr).toContain(`plays partner '${OWN.SANDBOX_PARTNER}' with another non-prod key than the export would sign with`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['--out is a file', (file: string) => ['--out', join(file, 'sub')], (file: string) => `pos-sandbox: cannot write the Postman files into ${file}/sub: ENOTDIR: not a directory, mkdir '${file}/sub'\n`],
    // Node's own recursive mkdir never returns here: the command must still end, with the reason.
    ['--out cannot be made', () => ['--out', '/proc/pos-sandbox-out'], () => "pos-sandbox: cannot write the Postman files into /proc/pos-sandbox-out: ENOENT: no such file or directory, mkdir '/proc/pos-sandbox-out'\n"],
    ['--sandbox is not an http URL', () => ['--sandbox', 'ftp://x'], () => "pos-sandbox: --sandbox must be the http(s) address of the sandbox, such as http://127.0.0.1:4100, got 'ftp://x'\n"],
    ['--location is unknown', () => ['--location', 'loc-x'], () => "pos-sandbox: --location 'loc-x' is not a fixture location (loc-std-001, loc-hub-001-burgers, loc-hub-001-noodles, loc-kiosk-001)\n"],
  ])('exits 2 with one line when %s', async (_case, args, message) => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const result = await cli(['export', 'postman', '--out', tempDir(), ...args(file)]);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({ code: 2, stderr: message(file), stdout: '' });
  });
});

describe('the exported collection, run by newman against a real sandbox', () => {
  let plain: { baseUrl: string; dir: string; run: Awaited<ReturnType<typeof newman>> };
  let delivering: { baseUrl: string; dir: string; run: Awaited<ReturnType<typeof newman>>; exportStderr: string };

  // Two sandboxes side by side: as `npm start` leaves it (no POS), and with the partner's own key and a POS.
  beforeAll(async () => {
    const posOrderUrl = await posWithoutStatus();
    const exportFor = async (baseUrl: string, env: Record<string, string> = {}) => {
      const dir = tempDir();
      const result = await cli(['export', 'postman', '--sandbox', baseUrl, '--out', dir], env);
      expect(result.code).toBe(0);
      return { dir, stderr: result.stderr };
    };
    const [first, second] = await Promise.all([serve([]), serve(['--pos-order-url', posOrderUrl], OWN)]);
    const [plainFiles, ownFiles] = await Promise.all([exportFor(first.baseUrl), exportFor(second.baseUrl, OWN)]);
    const [plainRun, ownRun] = await Promise.all([newman(plainFiles.dir), newman(ownFiles.dir)]);
    plain = { baseUrl: first.baseUrl, dir: plainFiles.dir, run: plainRun };
    delivering = { baseUrl: second.baseUrl, dir: ownFiles.dir, run: ownRun, exportStderr: ownFiles.stderr };
  });

  it('runs every request, top to bottom, with no failed assertion', () => {
    expect(plain.run.report.run.failures.map((f) => `${f.source.name}: ${f.error.test ?? ''} ${f.error.message}`)).toEqual([]);
    expect(plain.run.code).toBe(0);
    expect(plain.run.report.run.executions.map((e) => e.item.name)).toEqual(requestNames(plain.dir));
    expect(plain.run.report.run.executions.every((e) => e.response !== undefined && (e.assertions ?? []).length > 0)).toBe(true);
    expect(plain.run.report.run.stats.assertions).toEqual({ total: 42, pending: 0, failed: 0 });
  });

  it('gets 200 and x-sandbox-findings: 0 for the refund and the menu updates', () => {
    const answers = ['Refund an order', 'Update the menu, form A', 'Update the menu, form B'].map((name) => {
      const call = execution(plain.run.report, name);
      return [call.response?.code, header(call, 'x-sandbox-findings')];
    });
    expect(answers).toEqual([
      [200, '0'],
      [200, '0'],
      [200, '0'],
    ]);
    // No POS to send an order to: the status call names an ACCEPTED fixture order and is told it is decided.
    expect(execution(plain.run.report, 'Create an order').response?.code).toBe(400);
    expect(execution(plain.run.report, 'Send an order status').response?.code).toBe(409);
  });

  it('leaves the refund in the journal with no finding, under a token with the six §5 claims', async () => {
    const entries = await allPages<{ response: { status: number }; findings: unknown[]; token: { header: object; claims: Record<string, unknown> } }>(plain.baseUrl, '/_sandbox/journal?path=/order/refund');
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect({ status: entry!.response.status, findings: entry!.findings, header: entry!.token.header }).toEqual({ status: 200, findings: [], header: { alg: 'HS256', typ: 'JWT' } });
    const { claims } = entry!.token;
    expect(Object.keys(claims)).toEqual(['sub', 'jti', 'nbf', 'exp', 'iss', 'aud']);
    expect(claims).toMatchObject({ sub: 'loc-std-001', iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' });
    expect((claims.exp as number) - (claims.nbf as number)).toBe(300);
    expect(Math.abs((claims.nbf as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('signs each POS call with a new jti', async () => {
    // Every page: a journal page stops at 25 ms of redaction, and on a loaded machine the first held two of the four.
    const entries = await allPages<{ token?: { claims: { jti: string } } }>(plain.baseUrl, '/_sandbox/journal?direction=inbound');
    const jtis = entries.flatMap((entry) => (entry.token ? [entry.token.claims.jti] : []));
    expect(jtis).toHaveLength(4);
    expect(new Set(jtis).size).toBe(4);
  });

  it("uses the partner's own name and key from the environment, and decides the order a POS took", async () => {
    expect(delivering.exportStderr).toBe(`note: ${ENVIRONMENT} holds your non-prod key (SANDBOX_NONPROD_KEY); keep it out of repositories and shared workspaces (§5)\n`);
    expect(delivering.run.report.run.failures.map((f) => `${f.source.name}: ${f.error.message}`)).toEqual([]);
    const report = delivering.run.report;
    expect(['Create an order', 'Send an order status', 'Resend an order'].map((name) => execution(report, name).response?.code)).toEqual([201, 200, 409]);
    const orders = (await (await fetch(`${delivering.baseUrl}/_sandbox/orders?template=standard`)).json()) as Array<{ ExternalId?: string; Status: string; History: Array<{ by: string }> }>;
    expect(orders.filter((order) => order.ExternalId === 'STANDIN-1').map((order) => [order.Status, order.History.at(-1)?.by])).toEqual([['ACCEPTED', 'pos-status']]);
  });

  it('fails, naming the defect, when the token it signs has the wrong aud', async () => {
    const collection = join(plain.dir, COLLECTION);
    writeFileSync(collection, readFileSync(collection, 'utf8').replace("aud: 'io.service.pos.brokers.openapi'", "aud: 'demo-pos'"));
    const broken = await newman(plain.dir, 'POS calls');
    expect(broken.code).toBe(1);
    const { failures } = broken.report.run;
    expect(failures.map((f) => [f.source.name, f.error.test])).toEqual([
      ['Refund an order (POST /v2/order/refund)', 'answers 200 with no body'],
      ['Update the menu, form A (PUT /v2/menu)', 'answers 200 with no body: the update is applied'],
      ['Update the menu, form B (PUT /v2/menu)', 'answers 200 with no body: the update is applied'],
    ]);
    // The body of the 401 is the assertion's message: the user reads what is wrong with the token.
    expect(failures[0]!.error.message).toContain("token aud is 'demo-pos' but must be 'io.service.pos.brokers.openapi'");
  });
});
