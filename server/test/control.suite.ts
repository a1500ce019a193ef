import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { buildOrder } from '../orders/new-order.js';
import request from 'supertest';
import { isLoopbackAddress } from '../hosted/forwarding.js';
import { NOW_S, cleanHeaders, fixtures, posToken, postRefund, putMenu, testSandbox } from './helpers.js';
import { PACKAGE_ROOT } from '../version.js';
import { overUnixSocket } from './unix-socket.js';

/**
 * swagger-parser's verdict on a document, in a process of its own: it is CommonJS that requires an ES module,
 * which plain Node 20 loads and jest's module runtime does not.
 */
async function swaggerParserValidate(document: unknown): Promise<string> {
  const script = `
    import SwaggerParser from '@apidevtools/swagger-parser';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    try { await SwaggerParser.validate(JSON.parse(text)); console.log('valid'); } catch (error) { console.log(error.message); }
  `;
  const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: PACKAGE_ROOT });
  child.stdin?.end(JSON.stringify(document));
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'exit');
  return out.trim();
}

describe('/_sandbox access', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.5', false],
    ['192.168.1.20', false],
    ['::ffff:10.1.2.3', false],
    ['2001:db8::1', false],
    [undefined, false],
  ])('takes %s as loopback: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });

  it('refuses a client that is not on loopback, when no admin token is set', async () => {
    const { app } = await testSandbox();
    expect(await overUnixSocket(app, '/_sandbox/refunds')).toEqual({
      status: 403,
      body: {
        errors: [
          {
            code: 'FORBIDDEN',
            message: 'the control API answers loopback clients only (this request came from an address-less socket); start the sandbox with --admin-token to allow others',
          },
        ],
      },
    });
  });

  it('with --admin-token, answers whoever sends the token, and nobody else', async () => {
    const { app } = await testSandbox({ adminToken: 'admin-token-for-tests-0001' });
    expect((await overUnixSocket(app, '/_sandbox/health', { Authorization: 'Bearer admin-token-for-tests-0001' })).status).toBe(200);
    const wrong = await overUnixSocket(app, '/_sandbox/health', { Authorization: 'Bearer admin-token-for-tests-0002' });
    expect(wrong).toEqual({
      status: 401,
      body: { errors: [{ code: 'UNAUTHORIZED', message: 'the control API needs Authorization: Bearer <admin token> (the sandbox was started with --admin-token)' }] },
    });
    expect((await request(app).get('/_sandbox/health')).status).toBe(401);
  });
});

describe('the control API', () => {
  it('reports health: status, version, uptime, store, order delivery, journal, the fault rules in force and the quotas', async () => {
    const sandbox = await testSandbox();
    sandbox.clock.advance(65_000);
    const health = await request(sandbox.app).get('/_sandbox/health');
    expect(health.body).toEqual({
      status: 'ok',
      version: '0.1.0',
      startedAt: '2026-11-21T10:00:00.000Z',
      uptimeSeconds: 65,
      partner: 'demo-pos',
      store: sandbox.store.storage.where,
      storeKind: sandbox.store.storage.kind,
      storeLatencyMs: expect.any(Number),
      instanceId: expect.stringMatching(/^.+-\d+$/),
      refundDelayMs: 0,
      delivery: { attempts: 3, attemptTimeoutMs: 2_000, retryDelaysMs: [1_000, 2_000], posOrderUrl: null },
      strict: false,
      journal: { entries: 0, limit: 5000, bytes: 0, byteLimit: 268_435_456 },
      faults: 0,
      events: { clients: 0, waitingBytes: 0, dropped: 0 },
      // A laptop's: no request rate, and bounds far past what a POS under test does.
      quota: {
        quotas: {
          requestsPerSecond: null,
          burst: 0,
          eventStreams: 64,
          harExports: 4,
          harExportsPerHour: null,
          harExportBytesPerSecond: null,
          checklistRunsPerHour: null,
          reportsKept: null,
          reportMaxAgeDays: null,
          heldRequests: 1000,
          deliveriesInFlight: 500,
          journalEntries: 5000,
          journalBytes: 268_435_456,
          bodyBytes: 1_048_576,
        },
        inUse: { deliveries: 0, heldRequests: 0 },
        refused: { requests: 0, eventStreams: 0, harExports: 0, checklistRuns: 0, heldRequests: 0, deliveries: 0 },
      },
    });
  });

  it('shows the key and token signatures a POS put into its data as [redacted] in every answer: refunds, menus, fault rules', async () => {
    const { app } = await testSandbox();
    const key = fixtures.partner.nonProdKey;
    const token = posToken();
    const signature = token.split('.')[2]!;
    expect((await postRefund(app, { body: JSON.stringify({ ExternalId: key }) })).status).toBe(200);
    expect((await postRefund(app, { body: JSON.stringify({ ExternalId: token }) })).status).toBe(200);
    expect((await putMenu(app, { LocationId: 'loc-std-001', Items: [{ Id: 'itm-margherita', Name: `Pizza ${key}`, Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1150 }] }] })).status).toBe(200);
    await request(app).post('/_sandbox/faults').send({ id: 'keyed', description: `note ${key}`, match: { path: '/nothing' }, action: { kind: 'drop' } });
    const answers = JSON.stringify([
      (await request(app).get('/_sandbox/refunds')).body,
      (await request(app).get('/_sandbox/locations/loc-std-001/menu')).body,
      (await request(app).get('/_sandbox/faults')).body,
    ]);
    expect(answers).not.toContain(key);
    expect(answers).not.toContain(signature);
    expect(answers).toContain('[redacted]');
  });

  it('lists the partner with its key fingerprint, never the key', async () => {
    const { app } = await testSandbox();
    const partners = await request(app).get('/_sandbox/partners');
    expect(partners.body).toEqual([
      { name: 'demo-pos', displayName: 'Demo POS', keyFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), tokenAudience: 'io.service.pos.brokers.openapi' },
    ]);
  });

  it('lists locations, menus and orders from the fixtures', async () => {
    const { app } = await testSandbox();
    const locations = (await request(app).get('/_sandbox/locations')).body;
    expect(locations.map((l: { id: string; menuItems: number }) => [l.id, l.menuItems])).toEqual([
      ['loc-std-001', 4],
      ['loc-hub-001-burgers', 3],
      ['loc-hub-001-noodles', 3],
      ['loc-kiosk-001', 3],
    ]);
    expect((await request(app).get('/_sandbox/locations/loc-kiosk-001/menu')).body.Items[0].Id).toBe('itm-coffee');
    const accepted = (await request(app).get('/_sandbox/orders?location=loc-std-001&status=ACCEPTED')).body;
    expect(accepted.map((o: { OrderId: string }) => o.OrderId).sort()).toEqual(['ord-std-0001', 'ord-std-0002']);
    const missing = await request(app).get('/_sandbox/locations/loc-nowhere/menu');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [{ code: 'NOT_FOUND', message: "no location 'loc-nowhere'; GET /_sandbox/locations lists them" }] });
    expect((await request(app).get('/_sandbox/orders/ord-none')).status).toBe(404);
  });

  it('resets: orders and menus back as shipped, refunds and journal cleared, jtis forgotten', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app);
    await sandbox.refunds.runDue();
    const update = { LocationId: 'loc-std-001', Items: [{ Id: 'itm-tiramisu', Name: 'Tiramisu', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 700 }] }] };
    expect((await putMenu(sandbox.app, update)).status).toBe(200);
    expect((await request(sandbox.app).get('/_sandbox/orders/ord-std-0001')).body.Status).toBe('REFUNDED');
    const reset = await request(sandbox.app).post('/_sandbox/reset');
    expect(reset.body).toEqual({ reset: true, orders: 6, refunds: 0, journal: 0, faults: 0 });
    expect((await request(sandbox.app).get('/_sandbox/orders/ord-std-0001')).body.Status).toBe('ACCEPTED');
    expect((await request(sandbox.app).get('/_sandbox/locations/loc-std-001/menu')).body).toEqual(fixtures.menus['loc-std-001']);
    expect((await request(sandbox.app).get('/_sandbox/refunds')).body).toEqual([]);
    expect((await request(sandbox.app).get('/_sandbox/journal')).body).toEqual([]);
  });

  it('mints a token the POS API accepts', async () => {
    const { app } = await testSandbox();
    const minted = await request(app).post('/_sandbox/tokens').send({ locationId: 'loc-hub-001-noodles', ttl: 300 });
    expect(minted.status).toBe(201);
    expect(minted.body.claims).toMatchObject({ sub: 'loc-hub-001-noodles', iss: 'demo-pos', aud: 'io.service.pos.brokers.openapi' });
    expect(minted.body.claims.exp - minted.body.claims.nbf).toBe(300);
    const refund = await postRefund(app, {
      headers: { ...cleanHeaders(minted.body.token), 'x-service-locationid': 'loc-hub-001-noodles' },
      body: '{"ExternalId":"POS-HUB-2002"}',
    });
    expect(refund.status).toBe(200);
    expect(refund.headers['x-sandbox-findings']).toBe('0');
  });

  it.each([
    [{}, ['locationId must be a non-empty string, got undefined']],
    [{ locationId: 'x', ttl: 0, scope: 'all' }, ['scope is not a field of a token request (locationId, ttl)', 'ttl must be a whole number of seconds from 1 to 86400, got number 0']],
  ])('refuses a token request %j with every problem named', async (body, messages) => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/tokens').send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: messages.map((message) => ({ code: 'INVALID_REQUEST', message })) });
  });

  it('judges a token as the POS API answers it, without using its jti up', async () => {
    const { app } = await testSandbox();
    const token = posToken({ exp: NOW_S - 3600, aud: 'demo-pos' });
    const checked = await request(app).post('/_sandbox/tokens/check').send({ token: `Bearer ${token}` });
    const refund = await postRefund(app, { headers: cleanHeaders(token) });
    expect(checked.status).toBe(200);
    expect(checked.body.answer).toEqual({ authenticated: false, status: 401, body: refund.body });
    expect(checked.body.rules.filter((rule: { verdict: string }) => rule.verdict !== 'pass').map((rule: { rule: string }) => rule.rule)).toEqual(['aud', 'exp']);

    // A good token checked first is still unused: the POS's first call with it draws no JTI_REUSED.
    const good = posToken();
    const before = await request(app).post('/_sandbox/tokens/check').send({ token: good });
    expect(before.body).toMatchObject({ answer: { authenticated: true }, findings: [] });
    expect((await postRefund(app, { headers: cleanHeaders(good) })).headers['x-sandbox-findings']).toBe('0');
    // Another token with that jti: the check names the reuse the call would draw.
    const jti = JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString()).jti;
    const reused = await request(app).post('/_sandbox/tokens/check').send({ token: posToken({ jti, exp: NOW_S + 601 }) });
    expect(reused.body.findings.map((found: { code: string }) => found.code)).toEqual(['JTI_REUSED']);
  });

  it.each([
    [{}, ['token must be a string (a JWT, or a whole \'Bearer <JWT>\' header value), got undefined']],
    [{ token: 7, alg: 'none' }, ['alg is not a field of a token check (token)', "token must be a string (a JWT, or a whole 'Bearer <JWT>' header value), got number 7"]],
    [{ token: 'x'.repeat(16 * 1024 + 1) }, ['token is 16385 characters long; the check takes at most 16384']],
  ])('refuses a token check %# with every problem named', async (body, messages) => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/tokens/check').send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: messages.map((message) => ({ code: 'INVALID_REQUEST', message })) });
  });

  it('answers an unknown control path with 404 pointing at openapi.json', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/nothing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ code: 'NOT_FOUND', message: 'no control endpoint at GET /_sandbox/nothing; GET /_sandbox/openapi.json describes them all' }] });
  });

  it('serves a document whose every $ref resolves from the document root, as swagger-parser, Prism and Postman read it', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body as { components: { schemas: Record<string, unknown> } };
    // Embedded as they were, the menu schemas' #/definitions/… failed here ("Missing $ref pointer").
    expect(await swaggerParserValidate(document)).toBe('valid');
    expect(JSON.stringify(document)).not.toMatch(/"\$(schema|id)"|#\/definitions\//);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['MenuUpdateFormA', 'MenuUpdateFormA.MenuItemFormA', 'MenuUpdateFormB']));
  });

  it('serves an OpenAPI 3.1 document that a real validator accepts, covering every route', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body;
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v2/order/refund', '/menu', '/v2/menu', '/v1/pos/openapi/menu', '/_sandbox/refunds', '/_sandbox/journal', '/_sandbox/journal.har', '/_sandbox/tokens', '/_sandbox/reset']),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/order/status', '/v2/order/status', '/v1/pos/openapi/order/status', '/_sandbox/orders', '/_sandbox/orders/{id}/resend', '/_sandbox/events']),
    );
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/_sandbox/faults', '/_sandbox/faults/{id}']));
  });

  it.each(['POS-STD-1001', '', '   ', '\t', 1001, 'x'.repeat(256), 'x'.repeat(257)])('agrees with the server on the refund ExternalId %p', async (externalId) => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body;
    const ajv = new Ajv({ strict: false, validateFormats: false });
    ajv.addSchema({ components: document.components }, 'openapi');
    const specAccepts = ajv.getSchema('openapi#/components/schemas/RefundRequest')!({ ExternalId: externalId });
    const answer = await postRefund(app, { body: JSON.stringify({ ExternalId: externalId }) });
    expect({ specAccepts, status: answer.status }).toEqual({ specAccepts: answer.status === 200, status: answer.status });
  });

  it('names the address it was fetched from in servers, so imported requests go where the sandbox runs', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json').set('Host', '127.0.0.1:4725')).body;
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:4725' }]);
  });

  it('describes the fault rules it answers with: every rule of GET /_sandbox/faults validates as FaultRuleInForce', async () => {
    const { app } = await testSandbox();
    const added = await request(app)
      .post('/_sandbox/faults')
      .send({ id: 'outage', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2 });
    expect(added.status).toBe(201);
    const document = (await request(app).get('/_sandbox/openapi.json')).body;
    const ajv = new Ajv({ strict: false, validateFormats: false });
    ajv.addSchema({ components: document.components }, 'openapi');
    const validate = ajv.getSchema('openapi#/components/schemas/FaultRuleInForce')!;
    const rules = (await request(app).get('/_sandbox/faults')).body as unknown[];
    expect(rules).toHaveLength(1);
    for (const rule of rules) expect({ rule, errors: validate(rule) ? null : validate.errors }).toEqual({ rule, errors: null });
    expect(validate({ ...(rules[0] as object), extra: 1 })).toBe(false);
  });

  it('answers POST /_sandbox/orders with 202 and an order that validates as OrderRecord, RequestId included', async () => {
    const { app, orders } = await testSandbox({ posOrderUrl: 'http://127.0.0.1:9/order', dispatch: { attempts: 1 } });
    const created = await request(app).post('/_sandbox/orders').send({ template: 'standard' });
    expect(created.status).toBe(202);
    const document = (await request(app).get('/_sandbox/openapi.json')).body;
    const ajv = new Ajv({ strict: false, validateFormats: false });
    ajv.addSchema({ components: document.components }, 'openapi');
    const validate = ajv.getSchema('openapi#/components/schemas/OrderRecord')!;
    expect({ errors: validate(created.body) ? null : validate.errors }).toEqual({ errors: null });
    // The RequestId of the 202 is the one the POS receives on every try of this dispatch.
    await orders.settled();
    expect(orders.get(created.body.OrderId)?.Deliveries?.[0]?.requestId).toBe(created.body.Order.RequestId);
  });

  it('declares the headers a clean POS call needs: a refund built from its parameter examples draws no finding', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean; example?: string }> }>>;
    };
    const parameters = document.paths['/v2/order/refund']!.post!.parameters ?? [];
    const headers = Object.fromEntries(parameters.filter((p) => p.in === 'header' && p.required).map((p) => [p.name, p.example!]));
    expect(Object.keys(headers).sort()).toEqual(['x-api-key', 'x-api-version', 'x-service-locationid']);
    const answer = await postRefund(app, { headers: { ...Object.fromEntries(Object.keys(cleanHeaders()).filter((name) => name !== 'Authorization' && name !== 'Content-Type').map((name) => [name, undefined])), ...headers } });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-sandbox-findings']).toBe('0');
    // Importers send every declared optional header with a placeholder: the fault header is described, not declared.
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations)) expect({ path, fault: (operation.parameters ?? []).some((p) => p.name === 'x-sandbox-fault') }).toEqual({ path, fault: false });
    }
    // Counted, not shown: a failure must not print the whole document. The name of the internal document is
    // built, so that this line does not cite it either.
    const internal = ['SANDBOX', 'SPEC'].join('-');
    expect(JSON.stringify(document).split(internal).length - 1).toBe(0);
  });

  it('states the security of every operation: the POS token on the POS API, none or the admin token on /_sandbox', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body as { paths: Record<string, Record<string, { security?: unknown }>> };
    const stated = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ operation: `${method} ${path}`, security: operation.security })),
    );
    expect(stated.filter((one) => one.security === undefined)).toEqual([]);
    expect(stated.find((one) => one.operation === 'post /_sandbox/reset')?.security).toEqual([{}, { adminToken: [] }]);
    expect(stated.find((one) => one.operation === 'post /v2/order/refund')?.security).toEqual([{ posToken: [] }]);
  });

  it('publishes the order model in openapi.json so that it checks an order the sandbox sends', async () => {
    const { app } = await testSandbox();
    const document = (await request(app).get('/_sandbox/openapi.json')).body;
    const ajv = new Ajv({ strict: false, validateFormats: false });
    ajv.addSchema({ components: document.components }, 'openapi');
    const validate = ajv.getSchema('openapi#/components/schemas/SandboxOrder')!;
    const order = buildOrder({ template: fixtures.templates.hub!, location: fixtures.locations[1]!, orderId: 'o', requestId: 'r', createdAt: '2026-11-21T10:00:00Z' });
    expect(validate(order)).toBe(true);
    expect(validate({ ...order, Total: 19.79 })).toBe(false);
  });
});
