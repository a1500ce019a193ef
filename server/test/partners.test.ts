/**
 * A hosted sandbox with two partners (serve --partners), built from a real partners file: every read and write path
 * tried across partners (POS API, control API, events, journal, faults, menus, orders, checklist reports), and none
 * crosses. Also what belongs to no partner: an unknown iss, no token, another partner's key.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import request from 'supertest';
import { NOW_S, orderEnvelope, signHs256 } from './helpers.js';
import { ALPHA, BETA, OPERATOR, startHosted, type HostedTest, type Partner } from './hosted-partners.js';
import { closeServers, listen, scriptedPos } from './live.js';

const STRANGER_KEY = 'a-key-of-nobody-in-this-sandbox-'.padEnd(40, 'z');

let test: HostedTest;
let dir: string;
let app: RequestListener;

beforeEach(async () => {
  // Alpha's POS runs on this machine in these tests: its operator opened loopback for it.
  test = await startHosted({ alpha: { egress: { allow: ['http://127.0.0.1:*'], allowNetworks: ['127.0.0.0/8'] } } });
  ({ dir, app } = test);
});
afterEach(async () => {
  test.close();
  await closeServers();
});

const pos = (...args: Parameters<HostedTest['pos']>) => test.pos(...args);
const refund = (partner: Partner, externalId: string, options: { key?: string } = {}) => test.refund(partner, externalId, options);
const control = (token: string, path: string, headers: Record<string, string> = {}) => test.control(token, path, headers);

describe('a hosted sandbox: the POS API', () => {
  it("takes each partner's tokens with its own key, and keeps each partner's refunds to it", async () => {
    expect((await refund(ALPHA, 'POS-STD-1001')).status).toBe(200);
    expect((await refund(BETA, 'POS-STD-1002')).status).toBe(200);
    const alphas = (await control(ALPHA.admin, '/_sandbox/refunds')).body as Array<{ externalId: string; partner: string }>;
    const betas = (await control(BETA.admin, '/_sandbox/refunds')).body as Array<{ externalId: string; partner: string }>;
    expect(alphas.map((one) => [one.partner, one.externalId])).toEqual([['alpha-pos', 'POS-STD-1001']]);
    expect(betas.map((one) => [one.partner, one.externalId])).toEqual([['beta-pos', 'POS-STD-1002']]);
  });

  it("refuses a token signed with another partner's key exactly as one signed with nobody's: it does not say whose key it was", async () => {
    const betasKey = await refund(ALPHA, 'POS-STD-1001', { key: BETA.key });
    const nobodysKey = await refund(ALPHA, 'POS-STD-1001', { key: STRANGER_KEY });
    expect(betasKey.status).toBe(401);
    expect(betasKey.body).toEqual(nobodysKey.body);
    expect(JSON.stringify(betasKey.body)).not.toMatch(/beta/i);
    // Nothing was recorded for either partner but alpha's own journal of the refusals.
    expect((await control(BETA.admin, '/_sandbox/journal')).body).toEqual([]);
  });

  it("refuses an iss that is no partner as a partner's iss signed with another key, in the same words, and reaches no partner", async () => {
    const said = (iss: string) =>
      `token iss is '${iss}', and no POS partner of that name here has a non-prod key that verifies the token: iss must be your POS name as registered here, the token signed with its non-prod key (a production key, another partner's, or a mistyped one?) (§5)`;
    const unknown = await refund({ ...ALPHA, name: 'gamma-pos' }, 'POS-STD-1001', { key: STRANGER_KEY });
    expect([unknown.status, unknown.body]).toEqual([401, orderEnvelope('UNAUTHORIZED', said('gamma-pos'))]);
    const wrongKey = await refund(ALPHA, 'POS-STD-1001', { key: STRANGER_KEY });
    expect([wrongKey.status, wrongKey.body]).toEqual([401, orderEnvelope('UNAUTHORIZED', said('alpha-pos'))]);
    expect((await control(ALPHA.admin, '/_sandbox/journal')).body).toEqual([]);
  });

  it("keeps which it was in the operator's log, and answers the two apart when the partners file says tellUnknownPartners", async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const telling = await startHosted({ file: { tellUnknownPartners: true } }, { logger });
    try {
      const unknown = await telling.refund({ ...ALPHA, name: 'gamma-pos' }, 'POS-STD-1001', { key: STRANGER_KEY });
      const wrongKey = await telling.refund(ALPHA, 'POS-STD-1001', { key: STRANGER_KEY });
      expect([unknown.body, wrongKey.body]).toEqual([
        orderEnvelope('UNAUTHORIZED', "token iss is 'gamma-pos', which is no POS partner of this sandbox: iss must be your POS name as registered here (§5)"),
        orderEnvelope('UNAUTHORIZED', "token signature does not verify with the non-prod key of POS 'alpha-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)"),
      ]);
    } finally {
      telling.close();
    }
    const quiet = await startHosted({}, { logger });
    try {
      await quiet.refund({ ...ALPHA, name: 'gamma-pos' }, 'POS-STD-1001', { key: STRANGER_KEY });
      await quiet.refund(ALPHA, 'POS-STD-1001', { key: STRANGER_KEY });
    } finally {
      quiet.close();
    }
    const refused = lines.map((line) => JSON.parse(line) as { refused?: string; msg: string }).filter((line) => line.refused !== undefined);
    expect(refused.map(({ refused: detail, msg }) => [msg, detail])).toEqual([
      ['a POS call refused before any partner', "token iss is 'gamma-pos', which is no POS partner of this sandbox: iss must be your POS name as registered here (§5)"],
      ['a POS call refused before any partner', "token signature does not verify with the non-prod key of POS 'alpha-pos': it was signed with another key (a production key, another partner's, or a mistyped one?)"],
    ]);
  });

  it('answers a call without a token in the envelope of its path, and an unknown path 404 and a wrong method 405, as one sandbox does', async () => {
    const menu = await request(app).put('/v2/menu').set('content-type', 'application/json').send('{}');
    expect([menu.status, menu.body]).toEqual([
      401,
      { errors: [{ Code: 'UNAUTHORIZED', Message: 'Authorization header is missing; send Authorization: Bearer <JWT> signed with the non-prod key (§5)' }] },
    ]);
    const bare = await request(app).post('/v2/order/refund').set('authorization', 'not-a-token');
    expect([bare.status, bare.body]).toEqual([401, orderEnvelope('UNAUTHORIZED', "Authorization header must be 'Bearer <JWT>' (§5), got scheme 'not-a-token'")]);
    const noIss = await request(app)
      .post('/v2/order/refund')
      .set('authorization', `Bearer ${signHs256({ alg: 'HS256' }, { sub: 'loc-std-001' }, ALPHA.key)}`);
    expect([noIss.status, noIss.body]).toEqual([
      401,
      orderEnvelope('UNAUTHORIZED', 'token claim iss is missing or not a string: it must be your POS name, by which this sandbox knows whose key signed the token (§5)'),
    ]);
    expect((await request(app).get('/v2/order/refund')).status).toBe(405);
    const nowhere = await request(app).post('/v2/nowhere');
    expect(nowhere.status).toBe(404);
    expect((await request(app).post('/v1/pos/integration/order/refund')).status).toBe(410);
  });

  it("keeps the jtis each partner has seen apart: the same jti from two partners is no replay", async () => {
    const first = await pos(ALPHA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-1001' }, { claims: { jti: 'shared-jti' } });
    const second = await pos(BETA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-1001' }, { claims: { jti: 'shared-jti' } });
    expect([first.headers['x-sandbox-findings'], second.headers['x-sandbox-findings']]).toEqual(['0', '0']);
    // Another token of one partner with the same jti draws the finding.
    const again = await pos(BETA, 'post', '/v2/order/refund', { ExternalId: 'POS-STD-9999' }, { claims: { jti: 'shared-jti', exp: NOW_S + 500 } });
    expect(again.headers['x-sandbox-findings']).toBe('1');
  });

  it("changes a menu for its own partner only", async () => {
    const carbonara = async (partner: Partner) =>
      ((await control(partner.admin, '/_sandbox/locations/loc-std-001/menu')).body as { Items: Array<{ Id: string; Prices: Array<{ Price: number }> }> }).Items.find(
        (item) => item.Id === 'itm-carbonara',
      )!.Prices[0]!.Price;
    expect([await carbonara(ALPHA), await carbonara(BETA)]).toEqual([1390, 1390]);
    const update = { LocationId: 'loc-std-001', Items: [{ Id: 'itm-carbonara', Name: 'Spaghetti Carbonara', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1 }] }] };
    expect((await pos(ALPHA, 'put', '/v2/menu', update)).status).toBe(200);
    expect([await carbonara(ALPHA), await carbonara(BETA)]).toEqual([1, 1390]);
  });

  it("lets a partner decide only its own orders: another's status call finds none, and the order waits for its own POS", async () => {
    const alphaPos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1' } }]);
    const created = await request(app)
      .post('/_sandbox/orders?wait=true')
      .set({ authorization: `Bearer ${ALPHA.admin}`, 'content-type': 'application/json' })
      .send(JSON.stringify({ template: 'standard', locationId: 'loc-std-001', posOrderUrl: alphaPos.url }));
    expect(created.body.Status).toBe('AWAITING_STATUS');
    const betaStatus = await pos(BETA, 'post', '/v2/order/status', { ExternalId: 'X-1', Status: 'ACCEPTED' });
    const neverStatus = await pos(BETA, 'post', '/v2/order/status', { ExternalId: 'X-1-never', Status: 'ACCEPTED' });
    expect(betaStatus.status).toBe(neverStatus.status);
    expect(betaStatus.status).toBeGreaterThanOrEqual(400);
    expect((await control(ALPHA.admin, `/_sandbox/orders/${created.body.OrderId}`)).body.Status).toBe('AWAITING_STATUS');
    expect((await control(BETA.admin, `/_sandbox/orders/${created.body.OrderId}`)).status).toBe(404);
    expect((await pos(ALPHA, 'post', '/v2/order/status', { ExternalId: 'X-1', Status: 'ACCEPTED' })).status).toBe(200);
  });
});

describe('a hosted sandbox: the control API', () => {
  it('needs a token from every client, loopback too, and answers in the envelope', async () => {
    const answer = await request(app).get('/_sandbox/orders');
    expect([answer.status, answer.body]).toEqual([
      401,
      orderEnvelope(
        'UNAUTHORIZED',
        "this sandbox hosts several partners: its control API needs Authorization: Bearer <your partner's admin token>, or the operator's token with x-sandbox-partner: <partner>",
      ),
    ]);
  });

  it("shows each partner its own locations, orders, journal and partner entry, and never another's", async () => {
    await refund(ALPHA, 'POS-STD-1001');
    const locations = async (partner: Partner) => ((await control(partner.admin, '/_sandbox/locations')).body as Array<{ id: string }>).map((location) => location.id);
    expect(await locations(ALPHA)).toEqual(['loc-std-001', 'loc-hub-001-burgers', 'loc-hub-001-noodles', 'loc-kiosk-001']);
    expect(await locations(BETA)).toEqual(['loc-std-001', 'loc-kiosk-001']);
    const orderLocations = async (partner: Partner) => [...new Set(((await control(partner.admin, '/_sandbox/orders')).body as Array<{ LocationId: string }>).map((order) => order.LocationId))].sort();
    expect(await orderLocations(BETA)).toEqual(['loc-kiosk-001', 'loc-std-001']);
    expect(((await control(ALPHA.admin, '/_sandbox/journal')).body as unknown[]).length).toBe(1);
    expect((await control(BETA.admin, '/_sandbox/journal')).body).toEqual([]);
    expect(((await control(BETA.admin, '/_sandbox/partners')).body as Array<{ name: string }>).map((partner) => partner.name)).toEqual(['beta-pos']);
  });

  it("keeps fault rules and their counters to their partner: alpha's rule never fires on beta's calls", async () => {
    const added = await request(app)
      .post('/_sandbox/faults')
      .set({ authorization: `Bearer ${ALPHA.admin}`, 'content-type': 'application/json' })
      .send(JSON.stringify({ match: { path: '/v2/order/refund' }, action: { kind: 'status', status: 503 }, times: 5 }));
    expect(added.status).toBe(201);
    expect((await refund(BETA, 'POS-STD-1001')).status).toBe(200);
    expect((await refund(ALPHA, 'POS-STD-1001')).status).toBe(503);
    expect((await control(BETA.admin, '/_sandbox/faults')).body).toEqual([]);
  });

  it("resets its own partner only", async () => {
    await refund(ALPHA, 'POS-STD-1001');
    await refund(BETA, 'POS-STD-1001');
    expect((await request(app).post('/_sandbox/reset').set('authorization', `Bearer ${ALPHA.admin}`)).status).toBe(200);
    expect((await control(ALPHA.admin, '/_sandbox/refunds')).body).toEqual([]);
    expect(((await control(BETA.admin, '/_sandbox/refunds')).body as unknown[]).length).toBe(1);
  });

  it("refuses an admin token naming another partner, and lets the operator act for the partner it names", async () => {
    await refund(BETA, 'POS-STD-1001');
    const crossing = await control(ALPHA.admin, '/_sandbox/refunds', { 'x-sandbox-partner': 'beta-pos' });
    expect([crossing.status, crossing.body]).toEqual([403, orderEnvelope('FORBIDDEN', "this admin token is partner 'alpha-pos''s: it cannot act for x-sandbox-partner: 'beta-pos'")]);
    expect(((await control(OPERATOR, '/_sandbox/refunds', { 'x-sandbox-partner': 'beta-pos' })).body as unknown[]).length).toBe(1);
    expect((await control(OPERATOR, '/_sandbox/refunds', { 'x-sandbox-partner': 'alpha-pos' })).body).toEqual([]);
    const unnamed = await control(OPERATOR, '/_sandbox/refunds');
    expect([unnamed.status, unnamed.body]).toEqual([
      400,
      orderEnvelope('INVALID_REQUEST', "the operator's token acts for one partner at a time: name it in the header x-sandbox-partner (GET /_sandbox/partners lists them)"),
    ]);
    const unknown = await control(OPERATOR, '/_sandbox/refunds', { 'x-sandbox-partner': 'gamma-pos' });
    expect([unknown.status, unknown.body]).toEqual([400, orderEnvelope('INVALID_REQUEST', "x-sandbox-partner names no partner of this sandbox ('gamma-pos'); GET /_sandbox/partners lists them")]);
  });

  it('gives the operator the list of partners and their health, with no key or token in them', async () => {
    const partners = await control(OPERATOR, '/_sandbox/partners');
    expect(partners.body).toEqual([
      {
        name: 'alpha-pos',
        displayName: 'Alpha POS',
        keyFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
        tokenAudience: 'io.service.pos.brokers.openapi',
        locations: [
          { id: 'loc-std-001', kind: 'standard' },
          { id: 'loc-hub-001-burgers', kind: 'hub' },
          { id: 'loc-hub-001-noodles', kind: 'hub' },
          { id: 'loc-kiosk-001', kind: 'kiosk' },
        ],
        posOrderUrl: null,
        // Declared with an earlier file's names (refunds, orders): listed in the checklist's.
        capabilities: ['refund'],
      },
      {
        name: 'beta-pos',
        displayName: 'beta-pos',
        keyFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
        tokenAudience: 'io.service.pos.brokers.openapi',
        locations: [
          { id: 'loc-std-001', kind: 'standard' },
          { id: 'loc-kiosk-001', kind: 'kiosk' },
        ],
        posOrderUrl: null,
        capabilities: [],
      },
    ]);
    const text = JSON.stringify(partners.body) + JSON.stringify((await control(OPERATOR, '/_sandbox/health')).body);
    for (const secret of [ALPHA.key, BETA.key, ALPHA.admin, BETA.admin, OPERATOR]) expect(text).not.toContain(secret);
    const health = (await control(OPERATOR, '/_sandbox/health')).body as { status: string; partners: Array<{ name: string; status: string; storeKind: string }> };
    expect([health.status, health.partners.map((partner) => [partner.name, partner.status, partner.storeKind])]).toEqual([
      'ok',
      [
        ['alpha-pos', 'ok', 'memory'],
        ['beta-pos', 'ok', 'memory'],
      ],
    ]);
  });

  it("lists and opens each partner's checklist reports only", async () => {
    for (const [partner, id] of [
      [ALPHA.name, 'alpha-run'],
      [BETA.name, 'beta-run'],
    ] as const) {
      mkdirSync(join(dir, 'reports', partner, id), { recursive: true });
      writeFileSync(join(dir, 'reports', partner, id, 'report.json'), JSON.stringify({ title: id, startedAt: '2026-11-21T10:00:00.000Z', outcome: { verdict: 'PASSED' }, pos: { name: partner } }));
      writeFileSync(join(dir, 'reports', partner, id, 'report.html'), `<title>${id}</title>`);
    }
    const ids = async (partner: Partner) => ((await control(partner.admin, '/_sandbox/reports')).body as Array<{ id: string }>).map((report) => report.id);
    expect([await ids(ALPHA), await ids(BETA)]).toEqual([['alpha-run'], ['beta-run']]);
    expect((await control(ALPHA.admin, '/_sandbox/reports/beta-run/report.html')).status).toBe(404);
    expect((await control(BETA.admin, '/_sandbox/reports/beta-run/report.html')).text).toBe('<title>beta-run</title>');
  });

  it("streams each partner's events to its own token only", async () => {
    const url = await listen(app);
    const controller = new AbortController();
    const stream = await fetch(`${url}/_sandbox/events`, { headers: { authorization: `Bearer ${BETA.admin}` }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    await refund(ALPHA, 'POS-ALPHA-ONLY');
    await refund(BETA, 'POS-BETA-ONLY');
    while (!text.includes('POS-BETA-ONLY')) text += Buffer.from((await reader.read()).value!).toString('utf8');
    controller.abort();
    expect(text).not.toContain('POS-ALPHA-ONLY');
    expect(text).not.toContain('alpha-pos');
  });

  it('serves the dashboard and readiness to anyone: they hold no data, and name no host', async () => {
    expect((await request(app).get('/_sandbox/ui/')).status).toBe(200);
    expect((await request(app).get('/_sandbox/ready')).body).toEqual({ ready: true });
  });
});
