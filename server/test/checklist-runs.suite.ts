/** /_sandbox/checklist/runs and /_sandbox/reports over HTTP (a whole run is driven from the dashboard's browser test). */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ChecklistRunRefused } from '../checklist/checklist-runs.js';
import { lowerThisThreadsPriority, RUN_THREAD_NICE } from '../checklist/checklist-worker.js';
import { closedPort, listen } from './loopback.js';
import { orderEnvelope, PARTNER, posToken, testSandbox } from './helpers.js';

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('checklist runs', () => {
  it('refuses a bad run request with every problem named', async () => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/checklist/runs').send({ driverUrl: 'nope', capabilities: ['teleport'] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      orderEnvelope('INVALID_REQUEST', "driverUrl must be an http(s) URL, got string \"nope\"", "capabilities: unknown 'teleport'; known are refund, hub, kiosk, menu-form-b"),
    );
  });

  it("refuses a run whose report fields hold the partner's key, naming each, before anything is run", async () => {
    const { app, checklist } = await testSandbox();
    checklist.sandboxUrl = 'http://127.0.0.1:1';
    const key = PARTNER.nonProdKey;
    const response = await request(app)
      .post('/_sandbox/checklist/runs')
      .send({ driverUrl: `http://127.0.0.1:2/?k=${encodeURIComponent(key)}`, posName: `acme ${key}`, posBuild: 'ok', capabilities: [] });
    const said = (field: string) => `${field} holds the partner's non-prod key or a token, and a report is shared: write the report's fields without it (§5: the key is kept confidential)`;
    expect([response.status, response.body]).toEqual([400, orderEnvelope('INVALID_REQUEST', said('posName'), said('driverUrl'))]);
    expect(checklist.list()).toEqual([]);
  });

  it("names the texts that hold the partner's key or a token, in every form the redaction finds, and only those", async () => {
    const { app } = await testSandbox();
    const key = PARTNER.nonProdKey;
    const texts = {
      plain: 'acme-pos 4.2.0',
      lower: key.toLowerCase(),
      base64: Buffer.from(key).toString('base64'),
      hex: Buffer.from(key).toString('hex'),
      hidden: `${key.slice(0, 9)}\u2061${key.slice(9)}`,
      shy: `${key.slice(0, 9)}&shy;${key.slice(9)}`,
      token: `build-${posToken()}`,
      url: `http://pos.test/?k=${encodeURIComponent(key)}`,
    };
    const answer = await request(app).post('/_sandbox/secrets/check').send({ texts });
    expect([answer.status, answer.body]).toEqual([200, { holding: ['lower', 'base64', 'hex', 'hidden', 'shy', 'token', 'url'] }]);
    const wrong = await request(app).post('/_sandbox/secrets/check').send({ texts: { a: 42 } });
    expect([wrong.status, wrong.body]).toEqual([400, orderEnvelope('INVALID_REQUEST', 'texts.a must be a string of at most 4096 characters, got number 42')]);
  });

  it('refuses a run while the sandbox does not listen: the checklist calls it over HTTP', async () => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/checklist/runs').send({ referencePos: true });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      orderEnvelope('INVALID_STATE', 'this sandbox does not know its own address yet (it is not listening), and the checklist calls it over HTTP; start it with pos-sandbox serve'),
    );
  });

  it('answers 202 with every item pending, then says why a run failed to start', async () => {
    const { app, checklist } = await testSandbox();
    const port = await closedPort();
    checklist.sandboxUrl = `http://127.0.0.1:${port}`;
    const started = await request(app).post('/_sandbox/checklist/runs').send({ referencePos: true, only: ['AUTH-01', 'ORDER-02'] });
    expect(started.status).toBe(202);
    expect(started.headers.location).toBe('/_sandbox/checklist/runs/run-1');
    expect(started.body).toMatchObject({ id: 'run-1', status: 'running', driver: { referencePos: true, bugs: [] }, capabilities: [] });
    expect(started.body.items.map((item: { id: string; status: string }) => `${item.id} ${item.status}`)).toEqual(['AUTH-01 pending', 'ORDER-02 pending']);
    await until(async () => (await request(app).get('/_sandbox/checklist/runs/run-1')).body.status !== 'running');
    const run = (await request(app).get('/_sandbox/checklist/runs/run-1')).body;
    expect(run).toMatchObject({ status: 'failed', error: expect.stringContaining(`127.0.0.1:${port}`) });
    expect(run.finishedAt).toEqual(expect.any(String));
    expect((await request(app).get('/_sandbox/checklist/runs')).body.map((listed: { id: string }) => listed.id)).toEqual(['run-1']);
  });

  it("runs against the partner's own driver when given its URL, and says why that run failed", async () => {
    const { app, checklist } = await testSandbox();
    const port = await closedPort();
    checklist.sandboxUrl = `http://127.0.0.1:${port}`;
    const driverUrl = 'http://127.0.0.1:9/pos-driver';
    const started = await request(app).post('/_sandbox/checklist/runs').send({ driverUrl, posOrderUrl: `${driverUrl}/order`, only: ['AUTH-01'] });
    expect([started.status, started.body.driver]).toEqual([202, { url: driverUrl, referencePos: false }]);
    await until(async () => (await request(app).get('/_sandbox/checklist/runs/run-1')).body.status !== 'running');
    expect((await request(app).get('/_sandbox/checklist/runs/run-1')).body).toMatchObject({ status: 'failed', error: expect.stringContaining(`127.0.0.1:${port}`) });
  });

  it('says so, and runs on, where the system refuses the lower priority', () => {
    // A nice past the range the system takes: refused before anything changes, as a system without the right refuses it.
    expect(lowerThisThreadsPriority(100)).toBe(false);
  });

  it("runs in a thread of lower priority than the sandbox's event loop (Linux: nice 10)", async () => {
    const niceOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const lowered = () => readdirSync('/proc/self/task').filter((task) => niceOf(task) === RUN_THREAD_NICE);
    const { app, checklist } = await testSandbox();
    // The run's first call, held: by then the worker has lowered itself, and it lives until the answer.
    let held: ServerResponse | undefined;
    let heard: () => void = () => undefined;
    const called = new Promise<void>((resolve) => (heard = resolve));
    checklist.sandboxUrl = await listen((_req: IncomingMessage, res: ServerResponse) => {
      held = res;
      heard();
    });
    // An earlier test's run may still be ending its thread: the new run's thread is the one that was not there.
    const before = new Set(lowered());
    expect((await request(app).post('/_sandbox/checklist/runs').send({ referencePos: true, only: ['AUTH-01'] })).status).toBe(202);
    await called;
    expect(lowered().filter((task) => !before.has(task))).toHaveLength(1);
    expect(niceOf(String(process.pid))).not.toBe(RUN_THREAD_NICE);
    held!.writeHead(503).end();
    await until(async () => checklist.list().every((run) => run.status !== 'running'));
  });

  it('runs one at a time: a run changes the sandbox state', async () => {
    const { app, checklist } = await testSandbox();
    checklist.sandboxUrl = `http://127.0.0.1:${await closedPort()}`;
    const first = checklist.start({ driver: { referencePos: true, bugs: [] }, capabilities: [] });
    await expect(checklist.start({ driver: { referencePos: true, bugs: [] }, capabilities: [] })).rejects.toThrow(ChecklistRunRefused);
    await first;
    const second = await request(app).post('/_sandbox/checklist/runs').send({ referencePos: true });
    // The first run may have failed already (nothing listens at its address); if not, the second waits its turn.
    if (second.status === 409) {
      expect(second.body).toEqual(
        orderEnvelope('INVALID_STATE', "checklist run 'run-1' is still running, and a run changes the sandbox's state (orders, faults): wait for it to finish (GET /_sandbox/checklist/runs/run-1)"),
      );
    } else expect(second.status).toBe(202);
    await until(async () => checklist.list().every((run) => run.status !== 'running'));
  });

  it('answers 404 for a run this process did not start', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/checklist/runs/run-9');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(
      orderEnvelope('NOT_FOUND', "no checklist run 'run-9' in this sandbox process; GET /_sandbox/checklist/runs lists them, GET /_sandbox/reports the reports written"),
    );
  });
});

describe('reports', () => {
  function reportFolder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'reports-'));
    const report = (name: string, startedAt: string, verdict: string) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'report.json'), JSON.stringify({ title: `Run ${name}`, startedAt, outcome: { verdict }, pos: { name: 'acme-pos' } }));
      writeFileSync(join(dir, name, 'report.html'), `<!doctype html><title>Run ${name}</title>`);
    };
    report('2026-11-20T09-00-00-000Z-aaaaaa', '2026-11-20T09:00:00.000Z', 'failed');
    report('2026-11-21T09-00-00-000Z-bbbbbb', '2026-11-21T09:00:00.000Z', 'passed');
    // Not reports: a folder without report.json, a file, a report.json that is not JSON.
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'report.json'), '{');
    return dir;
  }

  it('lists the report folders newest first, and nothing that is not a report', async () => {
    const { app } = await testSandbox({ reportDir: reportFolder() });
    const response = await request(app).get('/_sandbox/reports');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: '2026-11-21T09-00-00-000Z-bbbbbb', title: 'Run 2026-11-21T09-00-00-000Z-bbbbbb', startedAt: '2026-11-21T09:00:00.000Z', verdict: 'passed', pos: 'acme-pos', html: '/_sandbox/reports/2026-11-21T09-00-00-000Z-bbbbbb/report.html', signer: null },
      { id: '2026-11-20T09-00-00-000Z-aaaaaa', title: 'Run 2026-11-20T09-00-00-000Z-aaaaaa', startedAt: '2026-11-20T09:00:00.000Z', verdict: 'failed', pos: 'acme-pos', html: '/_sandbox/reports/2026-11-20T09-00-00-000Z-aaaaaa/report.html', signer: null },
    ]);
  });

  it('reads a report.json again once it changes, and drops a folder whose report.json went away', async () => {
    const dir = reportFolder();
    const { app } = await testSandbox({ reportDir: dir });
    const verdicts = async () => (await request(app).get('/_sandbox/reports')).body.map((listed: { id: string; verdict: string }) => `${listed.id} ${listed.verdict}`);
    expect(await verdicts()).toEqual(['2026-11-21T09-00-00-000Z-bbbbbb passed', '2026-11-20T09-00-00-000Z-aaaaaa failed']);
    const file = join(dir, '2026-11-21T09-00-00-000Z-bbbbbb', 'report.json');
    writeFileSync(file, JSON.stringify({ title: 'rewritten', startedAt: '2026-11-21T09:00:00.000Z', outcome: { verdict: 'incomplete' }, pos: { name: 'acme-pos' } }));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    rmSync(join(dir, '2026-11-20T09-00-00-000Z-aaaaaa', 'report.json'));
    expect(await verdicts()).toEqual(['2026-11-21T09-00-00-000Z-bbbbbb incomplete']);
  });

  it('lists none when the report folder does not exist yet', async () => {
    const { app } = await testSandbox({ reportDir: join(tmpdir(), 'no-such-reports-folder-here') });
    expect((await request(app).get('/_sandbox/reports')).body).toEqual([]);
  });

  it('serves a report.html under a policy that loads nothing and cannot be framed, and nothing outside the folder', async () => {
    const dir = reportFolder();
    writeFileSync(join(dir, 'report.html'), 'not a report');
    const { app } = await testSandbox({ reportDir: dir });
    const page = await request(app).get('/_sandbox/reports/2026-11-21T09-00-00-000Z-bbbbbb/report.html');
    expect([page.status, page.headers['content-type'], page.text]).toEqual([200, 'text/html; charset=utf-8', '<!doctype html><title>Run 2026-11-21T09-00-00-000Z-bbbbbb</title>']);
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    for (const id of ['..', '.', '%2e%2e', 'empty', '..%2F..%2Fetc']) {
      const response = await request(app).get(`/_sandbox/reports/${id}/report.html`);
      expect([id, response.status]).toEqual([id, 404]);
    }
  });

  it('serves every file of a signed folder as an attachment of its type, and names the files when asked for another', async () => {
    const dir = reportFolder();
    const id = '2026-11-21T09-00-00-000Z-bbbbbb';
    writeFileSync(join(dir, id, 'signature.jws'), 'eyJhbGciOiJFZERTQSJ9..c2ln\n');
    writeFileSync(join(dir, id, 'statement.json'), '{"verdict":"passed"}\n');
    const { app } = await testSandbox({ reportDir: dir });
    const jws = await request(app).get(`/_sandbox/reports/${id}/signature.jws`);
    expect([jws.status, jws.headers['content-type'], jws.headers['content-disposition'], jws.text]).toEqual([200, 'application/jose; charset=utf-8', 'attachment; filename="signature.jws"', 'eyJhbGciOiJFZERTQSJ9..c2ln\n']);
    const statement = await request(app).get(`/_sandbox/reports/${id}/statement.json`);
    expect([statement.status, statement.headers['content-type'], statement.body]).toEqual([200, 'application/json; charset=utf-8', { verdict: 'passed' }]);
    const missing = await request(app).get(`/_sandbox/reports/${id}/manifest.json`);
    expect([missing.status, missing.body]).toEqual([404, orderEnvelope('NOT_FOUND', `no report '${id}' with manifest.json in this sandbox's report folder; GET /_sandbox/reports lists them`)]);
    const other = await request(app).get(`/_sandbox/reports/${id}/..%2F..%2Fpackage.json`);
    expect([other.status, other.body]).toEqual([
      404,
      orderEnvelope('NOT_FOUND', "a report folder has no file '../../package.json': it holds report.json, report.md, report.html, junit.xml, evidence.har, statement.json, manifest.json, signature.jws, statement.jws"),
    ]);
  });
});

describe('/.well-known/jwks.json', () => {
  it("publishes the sandbox's public report key, no private member, to anyone; any other method is a 405 in the envelope", async () => {
    const sandbox = await testSandbox({ adminToken: 'an-admin-token-of-16' });
    const keys = await request(sandbox.app).get('/.well-known/jwks.json');
    expect([keys.status, keys.headers['content-type'], keys.headers['cache-control']]).toEqual([200, 'application/json; charset=utf-8', 'public, max-age=300']);
    expect(keys.body).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: sandbox.reportKeys.signer.kid, alg: 'EdDSA', use: 'sig' }] });
    const posted = await request(sandbox.app).post('/.well-known/jwks.json').send({});
    expect([posted.status, posted.headers.allow, posted.body]).toEqual([405, 'GET', orderEnvelope('METHOD_NOT_ALLOWED', 'POST is not allowed on /.well-known/jwks.json; use GET')]);
  });
});
