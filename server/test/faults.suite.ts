import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { FAULT_HEADER_SYNTAX } from '../faults/fault-rules.js';
import type { FaultRule } from '../faults/fault-rule-types.js';
import { cleanHeaders, EXTERNAL_ID, LOCATION, menuEnvelope, orderEnvelope, postRefund, posToken, putMenu, testSandbox } from './helpers.js';
import { closeServers, liveSandbox } from './live.js';

afterEach(closeServers);

const INJECTED = 'injected by the sandbox (fault rule fault-1); nothing was processed';
const TIRAMISU = { Items: [{ Id: 'itm-tiramisu', Name: 'Tiramisù', Type: 'Item', Prices: [{ Service: 'Pickup', Price: 690 }] }] };

/** The three endpoint families, each with a call that succeeds (or fails the same way) without a fault. */
const FAMILIES = [
  {
    name: 'refund',
    method: 'POST',
    path: '/v2/order/refund',
    body: { ExternalId: EXTERNAL_ID },
    envelope: (code: string, message: string) => orderEnvelope(code, message),
  },
  {
    name: 'order status',
    method: 'POST',
    path: '/v2/order/status',
    body: { ExternalId: EXTERNAL_ID, Status: 'ACCEPTED' },
    envelope: (code: string, message: string) => orderEnvelope(code, message),
  },
  {
    name: 'menu',
    method: 'PUT',
    path: '/v2/menu',
    body: TIRAMISU,
    envelope: (code: string, message: string) => menuEnvelope([message], code),
  },
] as const;
type Family = (typeof FAMILIES)[number];

function call(app: Express, family: Family, headers: Record<string, string> = {}) {
  const method = family.method === 'PUT' ? request(app).put(family.path) : request(app).post(family.path);
  return method.set({ ...cleanHeaders(), ...headers }).send(JSON.stringify(family.body));
}

async function withRules(rules: FaultRule[]) {
  const sandbox = await testSandbox();
  const added = await request(sandbox.app).post('/_sandbox/faults').set('content-type', 'application/json').send(JSON.stringify(rules));
  expect(added.status).toBe(201);
  return sandbox;
}

/** What the stores hold that a POS call could change: refunds, the location's menu, the orders. */
function stateOf(sandbox: Awaited<ReturnType<typeof testSandbox>>) {
  return { refunds: sandbox.store.refunds.all(), menu: sandbox.store.menu(LOCATION), orders: sandbox.store.orders.all() };
}

describe.each(FAMILIES)('inbound faults on $name', (family) => {
  const only = { match: { path: family.path.replace('/v2', '') } };

  it('answers a status fault in the envelope of the endpoint, names the rule, and changes nothing', async () => {
    const sandbox = await withRules([{ ...only, action: { kind: 'status', status: 503 } }]);
    const before = stateOf(sandbox);
    const response = await call(sandbox.app, family);
    expect(response.status).toBe(503);
    expect(response.body).toEqual(family.envelope('SERVICE_UNAVAILABLE', `503 Service Unavailable: ${INJECTED}`));
    expect(response.headers['x-sandbox-fault-rule']).toBe('fault-1');
    expect(stateOf(sandbox)).toEqual(before);
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.fault).toEqual({ rule: 'fault-1', kind: 'status', source: 'api' });
    expect(entry.response.status).toBe(503);
    // What met the fault is in the journal: the ExternalId of the refund the 503 answered, say.
    expect(entry.request.body).toEqual(family.body);
  });

  it('answers a status fault with the body the rule gives, as the type it declares, sniffed by nothing and running nothing', async () => {
    const sandbox = await withRules([{ ...only, action: { kind: 'status', status: 502, body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html; charset=utf-8' } }]);
    const response = await call(sandbox.app, family);
    expect(response.status).toBe(502);
    expect([response.headers['content-type'], response.headers['x-content-type-options'], response.headers['content-security-policy']]).toEqual([
      'text/html; charset=utf-8',
      'nosniff',
      "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ]);
    expect(response.text).toBe('<html><body>502 Bad Gateway</body></html>');
  });

  it('sends a body that starts with < as plain text when the rule declares no type: a rule from a shared file cannot serve a page', async () => {
    const sandbox = await withRules([{ ...only, action: { kind: 'status', status: 502, body: '<script>fetch("/_sandbox/tokens")</script>' } }]);
    const response = await call(sandbox.app, family);
    expect([response.status, response.headers['content-type'], response.headers['x-content-type-options']]).toEqual([502, 'text/plain; charset=utf-8', 'nosniff']);
  });

  it('answers a rate limit with 429, Retry-After and the envelope, and changes nothing', async () => {
    const sandbox = await withRules([{ ...only, action: { kind: 'rate-limit', retryAfter: 7 } }]);
    const before = stateOf(sandbox);
    const response = await call(sandbox.app, family);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.body).toEqual(family.envelope('TOO_MANY_REQUESTS', `rate limit exceeded, retry after 7 s: ${INJECTED}`));
    expect(stateOf(sandbox)).toEqual(before);
  });

  it('answers malformed with a JSON content type and a body that does not parse, and changes nothing', async () => {
    const sandbox = await withRules([{ ...only, action: { kind: 'malformed', status: 502 } }]);
    const before = stateOf(sandbox);
    const response = await call(sandbox.app, family).buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done(null, text));
    });
    expect(response.status).toBe(502);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(() => JSON.parse(response.body as string) as unknown).toThrow(SyntaxError);
    expect(stateOf(sandbox)).toEqual(before);
  });

  it('delays a call, then handles it for real: the same answer as without the fault', async () => {
    const plain = await call((await testSandbox()).app, family);
    const sandbox = await withRules([{ ...only, action: { kind: 'delay', ms: 30 } }]);
    const response = await call(sandbox.app, family);
    expect([response.status, response.text]).toEqual([plain.status, plain.text]);
    expect(response.headers['x-sandbox-fault-rule']).toBe('fault-1');
    const entry = (await request(sandbox.app).get(`/_sandbox/journal/${response.headers['x-sandbox-journal-id']}`)).body;
    expect(entry.fault).toEqual({ rule: 'fault-1', kind: 'delay', source: 'api' });
  });

  it('drops the connection: the client sees a reset, the journal an unanswered call, the state no change', async () => {
    const sandbox = await liveSandbox();
    await request(sandbox.app).post('/_sandbox/faults').set('content-type', 'application/json').send(JSON.stringify({ ...only, action: { kind: 'drop' } }));
    const before = stateOf(sandbox);
    const outcome = await rawCall(sandbox.url, family, 2_000);
    expect(outcome).toEqual({ error: expect.stringMatching(/^(ECONNRESET|socket hang up)/) });
    expect(stateOf(sandbox)).toEqual(before);
    const [entry] = (await request(sandbox.app).get('/_sandbox/journal?fault=fault-1')).body;
    expect(entry.response).toEqual({ status: 0, headers: {}, error: 'connection dropped without an answer by fault rule fault-1' });
  });

  it('hangs: the client times out, the journal records the call once the client gives up, the state no change', async () => {
    const sandbox = await liveSandbox();
    await request(sandbox.app).post('/_sandbox/faults').set('content-type', 'application/json').send(JSON.stringify({ ...only, action: { kind: 'hang' } }));
    const before = stateOf(sandbox);
    expect(await rawCall(sandbox.url, family, 150)).toEqual({ error: 'client timeout' });
    expect(stateOf(sandbox)).toEqual(before);
    const entry = await journalEntryFor(sandbox.app, 'fault-1');
    expect(entry.response).toEqual({ status: 0, headers: {}, error: expect.stringMatching(/^no answer, held by fault rule fault-1 \(hang\) until the client closed the connection after \d+ ms$/) });
  });

  it('obeys x-sandbox-fault: status=503, in the envelope of the endpoint', async () => {
    const sandbox = await testSandbox();
    const response = await call(sandbox.app, family, { 'x-sandbox-fault': 'status=503' });
    expect(response.status).toBe(503);
    expect(response.body).toEqual(family.envelope('SERVICE_UNAVAILABLE', '503 Service Unavailable: injected by the sandbox (the x-sandbox-fault header); nothing was processed'));
  });

  it('refuses a malformed x-sandbox-fault with 400 that shows the syntax, and processes nothing', async () => {
    const sandbox = await testSandbox();
    const before = stateOf(sandbox);
    const response = await call(sandbox.app, family, { 'x-sandbox-fault': 'status=2OO' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(family.envelope('INVALID_REQUEST', `x-sandbox-fault 'status=2OO' needs a status from 400 to 599; use one of: ${FAULT_HEADER_SYNTAX}`));
    expect(stateOf(sandbox)).toEqual(before);
  });
});

describe('fault sequences', () => {
  it('fails twice with 503, then succeeds: exactly one refund is recorded', async () => {
    const sandbox = await withRules([{ match: { direction: 'inbound', path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2 }]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await postRefund(sandbox.app)).status);
    expect(statuses).toEqual([503, 503, 200]);
    const refunds = (await request(sandbox.app).get('/_sandbox/refunds')).body;
    expect(refunds).toHaveLength(1);
    expect(refunds[0].externalId).toBe(EXTERNAL_ID);
    expect((await postRefund(sandbox.app, { path: '/order/refund' })).status).toBe(200);
    expect((await request(sandbox.app).get('/_sandbox/faults')).body).toEqual([]);
  });

  it('answers every 10th request with 429, and lets the others through', async () => {
    const sandbox = await withRules([{ action: { kind: 'rate-limit', retryAfter: 3 }, every: 10 }]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await putMenu(sandbox.app, TIRAMISU)).status);
    expect(statuses.flatMap((status, index) => (status === 429 ? [index + 1] : []))).toEqual([10, 20]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(18);
    expect((await request(sandbox.app).get('/_sandbox/faults')).body[0]).toMatchObject({ seen: 20, fired: 2, left: null });
  });

  it('injects before authentication: a call without a token still gets the injected 503, not 401', async () => {
    const sandbox = await withRules([{ action: { kind: 'status', status: 503 }, times: 1 }]);
    expect((await postRefund(sandbox.app, { headers: { Authorization: undefined } })).status).toBe(503);
    expect((await postRefund(sandbox.app, { headers: { Authorization: undefined } })).status).toBe(401);
  });

  it('matches on the location header and on the partner of the token', async () => {
    const sandbox = await withRules([
      { match: { locationId: 'loc-kiosk-001' }, action: { kind: 'status', status: 500 } },
      { match: { partner: 'some-other-pos' }, action: { kind: 'status', status: 502 } },
    ]);
    expect((await postRefund(sandbox.app)).status).toBe(200);
    expect((await postRefund(sandbox.app, { headers: { 'x-service-locationid': 'loc-kiosk-001' } })).status).toBe(500);
    const otherPos = `Bearer ${posToken({ iss: 'some-other-pos' })}`;
    expect((await postRefund(sandbox.app, { headers: { Authorization: otherPos } })).status).toBe(502);
  });

  it('lets the header win over the rules, which then do not count the call', async () => {
    const sandbox = await withRules([{ action: { kind: 'status', status: 500 }, times: 1 }]);
    expect((await postRefund(sandbox.app, { headers: { 'x-sandbox-fault': 'rate-limit=2' } })).status).toBe(429);
    expect((await request(sandbox.app).get('/_sandbox/faults/fault-1')).body).toMatchObject({ seen: 0, left: 1 });
  });

  it('leaves the menu as it was when a menu update is answered with an injected error', async () => {
    const sandbox = await withRules([{ match: { method: 'PUT' }, action: { kind: 'status', status: 500 }, times: 1 }]);
    const before = structuredClone(sandbox.store.menu(LOCATION));
    expect((await putMenu(sandbox.app, TIRAMISU)).status).toBe(500);
    expect(sandbox.store.menu(LOCATION)).toEqual(before);
    expect((await putMenu(sandbox.app, TIRAMISU)).status).toBe(200);
    expect(sandbox.store.menu(LOCATION)).not.toEqual(before);
  });

  it('fires a probability rule by the injected random source', async () => {
    const draws = [0.05, 0.5, 0.09, 0.99];
    const sandbox = await testSandbox({ random: () => draws.shift()!, faults: [{ action: { kind: 'status', status: 503 }, probability: 0.1 }] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postRefund(sandbox.app)).status);
    expect(statuses).toEqual([503, 200, 503, 200]);
  });
});

/** A POS call over a real socket: its status, or the error the client saw. */
function rawCall(baseUrl: string, family: Family, timeoutMs: number): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const body = JSON.stringify(family.body);
    const req = httpRequest(`${baseUrl}${family.path}`, { method: family.method, headers: { ...cleanHeaders(), 'content-length': String(Buffer.byteLength(body)) }, agent: false });
    req.setTimeout(timeoutMs, () => {
      resolve({ error: 'client timeout' });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.end(body);
  });
}

/** The journal entry a rule acted on; a hung call's entry lands once the server sees the client leave. */
async function journalEntryFor(app: Express, rule: string) {
  for (let tries = 0; tries < 100; tries++) {
    const [entry] = (await request(app).get(`/_sandbox/journal?fault=${rule}`)).body;
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no journal entry for fault rule ${rule}`);
}
