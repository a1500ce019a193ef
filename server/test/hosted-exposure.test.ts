/**
 * A hosted sandbox put on a network (docs/hosting.md, "Exposing it to partners"): the addresses it calls for a partner,
 * what its health tells a partner, and each quota, through the real front, from a real partners file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { orderEnvelope, signHs256, validClaims } from './helpers.js';
import { ALPHA, BETA, OPERATOR, startHosted, type HostedTest } from './hosted-partners.js';
import { closedPort, closeServers, listen, scriptedPos } from './live.js';

let test: HostedTest | undefined;
afterEach(async () => {
  test?.close();
  test = undefined;
  await closeServers();
});

/** Alpha's POS runs on this machine: its operator opened loopback for it. Beta's operator allowed nothing. */
const LOOPBACK_ALPHA = { egress: { allow: ['http://127.0.0.1:*'], allowNetworks: ['127.0.0.0/8'] } };

async function hearing(): Promise<{ url: string; heard: () => number }> {
  let heard = 0;
  const url = await listen((_req: IncomingMessage, res: ServerResponse) => {
    heard++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ExternalId":"X-1"}');
  });
  return { url, heard: () => heard };
}

const post = (app: HostedTest['app'], token: string, path: string, body: unknown) =>
  request(app).post(path).set({ authorization: `Bearer ${token}`, 'content-type': 'application/json' }).send(JSON.stringify(body));

describe('a hosted sandbox calls for a partner only what its operator allowed', () => {
  it("refuses an order aimed at a loopback listener: 400, nothing stored, nothing sent", async () => {
    test = await startHosted({ alpha: LOOPBACK_ALPHA });
    const internal = await hearing();
    const before = (await test.control(BETA.admin, '/_sandbox/orders')).body.length as number;
    const answer = await post(test.app, BETA.admin, '/_sandbox/orders?wait=true', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: `${internal.url}/x` });
    expect([answer.status, answer.body]).toEqual([
      400,
      orderEnvelope(
        'INVALID_REQUEST',
        `posOrderUrl ${internal.url} is not an address this hosted sandbox calls for partner 'beta-pos': it calls only the origins the operator allowed for it (none yet); ask the operator to add yours to egress.allow in the partners file`,
      ),
    ]);
    expect([(await test.control(BETA.admin, '/_sandbox/orders')).body.length, internal.heard()]).toEqual([before, 0]);
  });

  it('tells a partner with no POS order URL to give an allowed one or ask the operator, not to start the sandbox', async () => {
    test = await startHosted();
    const answer = await post(test.app, BETA.admin, '/_sandbox/orders', { template: 'standard', locationId: 'loc-std-001' });
    expect([answer.status, answer.body]).toEqual([
      400,
      orderEnvelope(
        'INVALID_REQUEST',
        "no POS order URL for partner 'beta-pos': give posOrderUrl in this body, at an origin the operator allowed for you (none yet), or ask the operator to set your posOrderUrl in the partners file",
      ),
    ]);
  });

  it('refuses a checklist run aimed at loopback listeners, naming each URL, and calls neither', async () => {
    test = await startHosted();
    const driver = await hearing();
    const order = await hearing();
    test.hosted.partners.get(BETA.name)!.sandbox()!.checklist.sandboxUrl = 'http://127.0.0.1:1';
    const answer = await post(test.app, BETA.admin, '/_sandbox/checklist/runs', { driverUrl: driver.url, posOrderUrl: `${order.url}/order`, capabilities: [] });
    const refusal = (what: string, url: string) =>
      `${what} ${url} is not an address this hosted sandbox calls for partner 'beta-pos': it calls only the origins the operator allowed for it (none yet); ask the operator to add yours to egress.allow in the partners file`;
    expect([answer.status, answer.body]).toEqual([400, { errors: [refusal('driverUrl', driver.url), refusal('posOrderUrl', order.url)].map((message) => ({ code: 'INVALID_REQUEST', message })) }]);
    expect([driver.heard(), order.heard(), (await test.control(BETA.admin, '/_sandbox/checklist/runs')).body]).toEqual([0, 0, []]);
  });

  it('refuses an allowed port on a host name that is not allowed, though it resolves to the same address', async () => {
    test = await startHosted({ alpha: LOOPBACK_ALPHA });
    const internal = await hearing();
    const answer = await post(test.app, ALPHA.admin, '/_sandbox/orders', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: internal.url.replace('127.0.0.1', 'localhost') });
    expect([answer.status, internal.heard()]).toEqual([400, 0]);
  });

  it("delivers where the operator allowed, and a failed delivery does not say which network condition it met", async () => {
    test = await startHosted({ alpha: LOOPBACK_ALPHA });
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1' } }]);
    const delivered = await post(test.app, ALPHA.admin, '/_sandbox/orders?wait=true', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: pos.url });
    expect([delivered.status, delivered.body.Status]).toEqual([201, 'AWAITING_STATUS']);
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const failed = await post(test.app, ALPHA.admin, '/_sandbox/orders?wait=true', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: `${closed}/order` });
    expect([failed.body.Status, failed.body.Reason]).toEqual([
      'DELIVERY_FAILED',
      `3 tries failed; the last: no answer from the POS's order endpoint at ${closed}: the connection failed, was cut, or no answer came in time (a hosted sandbox does not say which)`,
    ]);
  });
});

describe('what health shows to whom', () => {
  it("shows a partner nothing of the store or the host, and the operator everything", async () => {
    test = await startHosted();
    const own = await test.control(ALPHA.admin, '/_sandbox/health');
    expect(own.status).toBe(200);
    for (const field of ['store', 'storeKind', 'storeLatencyMs', 'storeError', 'instanceId']) expect(own.body).not.toHaveProperty(field);
    expect(JSON.stringify(own.body)).not.toContain(test.hosted.instanceId);
    expect(own.body.quota.quotas).toMatchObject({ requestsPerSecond: 20, burst: 40, eventStreams: 4, harExports: 1, harExportsPerHour: 60, checklistRunsPerHour: 12, reportsKept: 20, reportMaxAgeDays: 30 });
    const operator = await test.control(OPERATOR, '/_sandbox/health');
    expect(operator.body).toMatchObject({ instanceId: test.hosted.instanceId, partners: [{ name: 'alpha-pos', storeKind: 'memory' }, { name: 'beta-pos', storeKind: 'memory' }] });
  });
});

describe('quotas per partner', () => {
  it("answers 429 with Retry-After, in the endpoint's envelope, past a partner's request rate, and only that partner's", async () => {
    test = await startHosted({ alpha: { quotas: { requestsPerSecond: 1, burst: 3 } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await test.refund(ALPHA, 'POS-STD-1001')).status);
    const refused = await test.refund(ALPHA, 'POS-STD-1001');
    const message =
      "partner 'alpha-pos' sent more than 1 requests a second (bursts of 3 allowed), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); send it again after 1 s";
    expect([statuses, refused.status, refused.headers['retry-after'], refused.body]).toEqual([[200, 200, 200], 429, '1', orderEnvelope('TOO_MANY_REQUESTS', message)]);
    const menu = await test.pos(ALPHA, 'put', '/v2/menu', { LocationId: 'loc-std-001', Items: [] });
    expect([menu.status, menu.body]).toEqual([429, { errors: [{ Code: 'TOO_MANY_REQUESTS', Message: message }] }]);
    expect((await test.control(ALPHA.admin, '/_sandbox/orders')).status).toBe(429);
    // Beta is untouched, and readiness and the dashboard's files hold no data: they pass.
    expect((await test.refund(BETA, 'POS-STD-1001')).status).toBe(200);
    expect([(await request(test.app).get('/_sandbox/ready')).status, (await request(test.app).get('/_sandbox/ui/')).status]).toEqual([200, 200]);
    // A refused call is not journaled; the health counts it.
    test.clock.now += 5_000;
    const health = await test.control(ALPHA.admin, '/_sandbox/health');
    expect([health.body.quota.refused.requests, health.body.journal.entries]).toEqual([3, 3]);
  });

  it('refuses an event stream past the quota, and takes one again once another closed', async () => {
    test = await startHosted({ alpha: { quotas: { eventStreams: 1 } } });
    const url = await listen(test.app);
    const open = () => fetch(`${url}/_sandbox/events`, { headers: { authorization: `Bearer ${ALPHA.admin}` }, signal: controller.signal });
    let controller = new AbortController();
    const first = await open();
    const second = await fetch(`${url}/_sandbox/events`, { headers: { authorization: `Bearer ${ALPHA.admin}` } });
    expect([first.status, second.status, second.headers.get('retry-after'), (await second.json()).errors[0].message]).toEqual([
      200,
      429,
      '5',
      "partner 'alpha-pos' has 1 event streams open, the most it may have (eventStreams: 1), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); close one first",
    ]);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller = new AbortController();
    const third = await open();
    expect(third.status).toBe(200);
    controller.abort();
  });

  it('refuses a second HAR export while one is under way, paced at its bytes a second, and takes one again once it ended', async () => {
    // Paced at 64 KiB a second, an export of 20 entries of 15 KB is under way for seconds.
    test = await startHosted({ alpha: { quotas: { harExports: 1, harExportBytesPerSecond: 65_536 } } });
    for (let i = 0; i < 20; i++) await test.pos(ALPHA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-1001', note: 'x'.repeat(15_000) });
    const url = await listen(test.app);
    // The first export over a socket of the test's own (fetch here reads a whole answer before it hands it over).
    const first = connect(Number(new URL(url).port), '127.0.0.1');
    const head = new Promise<string>((resolve) => first.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0]!)));
    first.write(`GET /_sandbox/journal.har HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ALPHA.admin}\r\n\r\n`);
    expect(await head).toBe('HTTP/1.1 200 OK');
    const second = await fetch(`${url}/_sandbox/journal.har`, { headers: { authorization: `Bearer ${ALPHA.admin}` } });
    expect([second.status, second.headers.get('retry-after'), (await second.json()).errors[0].message]).toEqual([
      429,
      '5',
      "partner 'alpha-pos' has 1 HAR export under way, the most at once (harExports: 1), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); send it again once it is done",
    ]);
    // The client gone, the export ends with it, and the next is taken (an empty one: it is paced too).
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.destroy();
    await closed;
    // The sandbox learns of the close a moment after the test does: asked again until it has.
    let next = await fetch(`${url}/_sandbox/journal.har?path=/nothing`, { headers: { authorization: `Bearer ${ALPHA.admin}` } });
    for (let tries = 0; next.status === 429 && tries < 200; tries++) {
      await next.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 10));
      next = await fetch(`${url}/_sandbox/journal.har?path=/nothing`, { headers: { authorization: `Bearer ${ALPHA.admin}` } });
    }
    expect([next.status, ((await next.json()) as { log: { entries: unknown[] } }).log.entries]).toEqual([200, []]);
  });

  it('streams a HAR export that is the whole journal, oldest first, as one JSON document', async () => {
    test = await startHosted();
    for (let i = 0; i < 12; i++) await test.refund(BETA, `POS-STD-${1000 + i}`);
    const whole = await test.control(BETA.admin, '/_sandbox/journal.har');
    const har = JSON.parse(whole.text) as { log: { version: string; creator: { name: string }; entries: Array<{ _journalId: string }> } };
    expect([whole.status, whole.headers['content-type'], whole.headers['content-disposition'], har.log.version, har.log.creator.name, har.log.entries.map((entry) => entry._journalId)]).toEqual([
      200,
      'application/json; charset=utf-8',
      'attachment; filename="pos-sandbox-journal.har"',
      '1.2',
      'pos-sandbox',
      Array.from({ length: 12 }, (_, i) => `j-${String(i + 1).padStart(6, '0')}`),
    ]);
  });

  it('refuses a checklist run past the runs of the hour, saying when the next may start', async () => {
    test = await startHosted({ beta: { quotas: { checklistRunsPerHour: 1 } } });
    // A sandbox whose address answers nothing: the run fails at once, and still counts.
    test.hosted.partners.get(BETA.name)!.sandbox()!.checklist.sandboxUrl = `http://127.0.0.1:${await closedPort()}`;
    const first = await post(test.app, BETA.admin, '/_sandbox/checklist/runs', { referencePos: true, capabilities: [] });
    const runs = test.hosted.partners.get(BETA.name)!.sandbox()!.checklist;
    while (runs.list()[0]?.status === 'running') await new Promise((resolve) => runs.once('changed', resolve));
    test.clock.now += 10 * 60 * 1000;
    const second = await post(test.app, BETA.admin, '/_sandbox/checklist/runs', { referencePos: true, capabilities: [] });
    expect([first.status, second.status, second.headers['retry-after'], second.body]).toEqual([
      202,
      429,
      '3000',
      orderEnvelope(
        'TOO_MANY_REQUESTS',
        "partner 'beta-pos' started 1 checklist runs in the last hour, the most it may (checklistRunsPerHour: 1); the next may start in 3000 s, a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\")",
      ),
    ]);
  });

  it("keeps the newest runs' reports and orders, and removes the others', those of CLI runs included", async () => {
    test = await startHosted({ alpha: { ...LOOPBACK_ALPHA, quotas: { reportsKept: 2, reportMaxAgeDays: 30 } } });
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1' } }]);
    const reports = join(test.dir, 'reports', ALPHA.name);
    const day = 24 * 60 * 60 * 1000;
    // Four runs: three left a report (from the dashboard), one only orders (from the CLI); the oldest is 40 days old.
    const runs = [
      { tag: 'aaaaaa', ageDays: 40, report: true },
      { tag: 'bbbbbb', ageDays: 3, report: true },
      { tag: 'cccccc', ageDays: 2, report: false },
      { tag: 'dddddd', ageDays: 1, report: true },
    ];
    const sandbox = test.hosted.partners.get(ALPHA.name)!.sandbox()!;
    for (const run of runs) {
      test.clock.now = Date.parse('2026-11-21T10:00:00Z') - run.ageDays * day;
      if (run.report) {
        const id = `${new Date(test.clock.now).toISOString().replace(/[:.]/g, '-')}-${run.tag}`;
        mkdirSync(join(reports, id), { recursive: true });
        writeFileSync(join(reports, id, 'report.json'), JSON.stringify({ title: id, startedAt: new Date(test.clock.now).toISOString(), outcome: { verdict: 'passed' }, pos: { name: ALPHA.name } }));
      }
      expect((await post(test.app, ALPHA.admin, '/_sandbox/orders?wait=true', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: pos.url, orderId: `chk-${run.tag}-01` })).status).toBe(201);
    }
    await post(test.app, ALPHA.admin, '/_sandbox/orders?wait=true', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: pos.url, orderId: 'ord-by-hand' });
    test.clock.now = Date.parse('2026-11-21T10:00:00Z');
    await sandbox.checklist.keepNewestRuns();
    const orderIds = ((await test.control(ALPHA.admin, '/_sandbox/orders?limit=5000')).body as Array<{ OrderId: string }>).map((order) => order.OrderId).filter((id) => id.startsWith('chk-') || id === 'ord-by-hand');
    const reportIds = ((await test.control(ALPHA.admin, '/_sandbox/reports')).body as Array<{ id: string }>).map((report) => report.id.slice(-6));
    expect([orderIds.sort(), reportIds]).toEqual([['chk-cccccc-01', 'chk-dddddd-01', 'ord-by-hand'], ['dddddd']]);
  });

  it("keeps a partner's journal within its bytes, the oldest going first", async () => {
    test = await startHosted({ alpha: { quotas: { journalBytes: 65_536, requestsPerSecond: null } } });
    const body = { ExternalId: 'POS-STD-1001', note: 'x'.repeat(8_000) };
    for (let i = 0; i < 20; i++) await test.pos(ALPHA, 'post', '/v2/order/refund', body);
    const { journal } = (await test.control(ALPHA.admin, '/_sandbox/health')).body as { journal: { entries: number; bytes: number; byteLimit: number } };
    expect(journal.bytes).toBeLessThanOrEqual(65_536);
    expect(journal.entries).toBeGreaterThan(3);
    expect(journal.entries).toBeLessThan(10);
    const ids = ((await test.control(ALPHA.admin, '/_sandbox/journal')).body as Array<{ id: string }>).map((entry) => entry.id);
    expect(ids[0]).toBe('j-000020');
  });

  it('holds so many requests for hang and delay rules at once, and answers 429 in place of the fault past that', async () => {
    test = await startHosted({ alpha: { quotas: { heldRequests: 2 } } });
    expect((await post(test.app, ALPHA.admin, '/_sandbox/faults', { id: 'hold', match: { path: '/order/refund' }, action: { kind: 'hang' } })).status).toBe(201);
    const url = await listen(test.app);
    const controller = new AbortController();
    const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: ALPHA.name }), ALPHA.key);
    const send = () =>
      fetch(`${url}/v2/order/refund`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'content-type': 'application/json' },
        body: '{"ExternalId":"POS-STD-1001"}',
        signal: controller.signal,
      });
    // Three at once: two are held, and the one the quota turns away is the one that answers.
    const answered = await Promise.race([send(), send(), send()]);
    expect([answered.status, answered.headers.get('retry-after'), ((await answered.json()) as { errors: Array<{ message: string }> }).errors[0]!.message]).toEqual([
      429,
      '1',
      "partner 'alpha-pos' has 2 requests held by fault rules (hang, delay), the most at once (heldRequests: 2), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); this hang fault did not hold the request",
    ]);
    controller.abort();
    expect(test.hosted.partners.get(ALPHA.name)!.sandbox()!.quota.view().refused.heldRequests).toBe(1);
  });

  it('delivers so many orders at once, answers 429 past that with nothing created or sent, and takes the next once one ends', async () => {
    const hosted = await startHosted({ alpha: { ...LOOPBACK_ALPHA, quotas: { deliveriesInFlight: 2 } } });
    test = hosted;
    // A POS that takes each order and answers only when told: every delivery stays under way until then.
    const waiting: ServerResponse[] = [];
    let heard = 0;
    let arrived: () => void = () => undefined;
    const url = await listen((_req: IncomingMessage, res: ServerResponse) => {
      heard++;
      waiting.push(res);
      arrived();
    });
    const arrivals = (count: number) => new Promise<void>((resolve) => (arrived = () => heard >= count && resolve()));
    const order = () => post(hosted.app, ALPHA.admin, '/_sandbox/orders', { template: 'standard', locationId: 'loc-std-001', posOrderUrl: `${url}/order` });
    const twoArrived = arrivals(2);
    expect([(await order()).status, (await order()).status]).toEqual([202, 202]);
    await twoArrived;
    const before = (await hosted.control(ALPHA.admin, '/_sandbox/orders')).body.length as number;
    const refused = await order();
    expect([refused.status, refused.headers['retry-after'], refused.body]).toEqual([
      429,
      '1',
      {
        errors: [
          {
            code: 'TOO_MANY_REQUESTS',
            message:
              "partner 'alpha-pos' has 2 orders being delivered to the POS, the most at once (deliveriesInFlight: 2), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); nothing was created or sent: send it again once one ends (each try ends within the delivery timeout)",
          },
        ],
      },
    ]);
    expect([(await hosted.control(ALPHA.admin, '/_sandbox/orders')).body.length, heard]).toEqual([before, 2]);
    const sandbox = hosted.hosted.partners.get(ALPHA.name)!.sandbox()!;
    expect([sandbox.quota.view().refused.deliveries, sandbox.quota.view().inUse.deliveries]).toEqual([1, 2]);
    // One delivery ends: its slot is free again (the state waited for, a turn of the event loop at a time).
    waiting.shift()!.writeHead(200, { 'content-type': 'application/json' }).end('{"ExternalId":"X-1"}');
    while (sandbox.orders.delivering > 1) await new Promise((resolve) => setImmediate(resolve));
    const third = arrivals(3);
    expect((await order()).status).toBe(202);
    await third;
    for (const res of waiting) res.destroy();
  });

  it("refuses a POS body over the partner's own limit with 413 naming it", async () => {
    test = await startHosted({ alpha: { quotas: { bodyBytes: 2048 } } });
    const answer = await test.pos(ALPHA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-1001', note: 'x'.repeat(3000) });
    expect([answer.status, answer.body.errors[0].message]).toEqual([413, 'body is 3039 bytes; the sandbox accepts at most 2048 bytes for this partner (bodyBytes, a quota of this sandbox)']);
    expect((await test.pos(BETA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-1001', note: 'x'.repeat(3000) })).status).toBe(200);
  });
});
