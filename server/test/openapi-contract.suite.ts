/**
 * openapi.json against the sandbox's real answers: every operation says what it does and which refusals it can
 * answer, those refusals are the ones the routes give, the HAR schema holds a real export, and the linter of
 * `npm run lint:openapi` finds no error in the committed file.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { PACKAGE_ROOT } from '../version.js';
import { OPENAPI_FILE } from '../../scripts/generate-openapi.js';
import { postRefund, putMenu, testSandbox } from './helpers.js';

interface Operation {
  description?: string;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: object;
}

async function servedDocument(): Promise<Document> {
  const { app } = await testSandbox();
  return (await request(app).get('/_sandbox/openapi.json')).body as Document;
}

function operations(document: Document): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ method, path, operation })));
}

/** A validator for the schema at a JSON pointer of the document, with JSON Schema 2020-12 as OpenAPI 3.1 uses it. */
function schemaValidator(document: Document, pointer: string) {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ paths: document.paths, components: document.components }, 'openapi');
  return ajv.getSchema(`openapi#${pointer}`)!;
}

/** A real path for a templated one: `{id}` becomes an id no record has. */
const concrete = (path: string) => path.replace('{id}', 'no-such-id');

describe('openapi.json operations', () => {
  it('each say what they do and answer at least one 4xx, in an error envelope', async () => {
    const document = await servedDocument();
    for (const { method, path, operation } of operations(document)) {
      const fourXx = Object.keys(operation.responses).filter((status) => /^4\d\d$/.test(status));
      const envelopes = fourXx.map((status) => JSON.stringify(operation.responses[status]!.content?.['application/json']?.schema));
      expect({ operation: `${method} ${path}`, described: (operation.description ?? '').length > 20, fourXx: fourXx.length > 0 }).toEqual({
        operation: `${method} ${path}`,
        described: true,
        fourXx: true,
      });
      const envelope = path.startsWith('/_sandbox') || !path.endsWith('/menu') ? 'OrderErrorEnvelope' : 'MenuErrorEnvelope';
      for (const schema of envelopes) expect({ operation: `${method} ${path}`, schema }).toEqual({ operation: `${method} ${path}`, schema: `{"$ref":"#/components/schemas/${envelope}"}` });
    }
  });

  it('describe every status a POS call can be injected, the envelope of its family included', async () => {
    const document = await servedDocument();
    const pos = operations(document).filter(({ path }) => !path.startsWith('/_sandbox') && !path.startsWith('/.well-known'));
    expect(pos).toHaveLength(9);
    for (const { operation } of pos) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['429', '503', 'default']));
      expect(Object.keys(operation.responses.default!.content!).sort()).toEqual(['application/json', 'text/html', 'text/plain']);
      // A malformed fault's body is not JSON: the document says so instead of pretending a schema holds it.
      expect(operation.description).toMatch(/malformed answers a body labelled application\/json that is NOT JSON/);
    }
  });
});

describe('the refusals openapi.json lists for the control API', () => {
  // Each declared status is sent for real to every control operation that declares it.
  const cases: Array<{ status: string; options: { adminToken?: string }; headers: Record<string, string>; body?: string }> = [
    { status: '403', options: {}, headers: { Origin: 'http://evil.example' } },
    { status: '401', options: { adminToken: 'admin-secret' }, headers: {} },
    { status: '415', options: {}, headers: { 'Content-Type': 'text/plain' }, body: 'not json' },
    { status: '404', options: {}, headers: {} },
  ];

  it.each(cases)('are answered: $status on every operation that declares it', async ({ status, options, headers, body }) => {
    const document = await servedDocument();
    const { app } = await testSandbox(options);
    const declaring = operations(document).filter(({ path, operation }) => path.startsWith('/_sandbox') && operation.responses[status] !== undefined);
    expect(declaring.length).toBeGreaterThan(0);
    for (const { method, path } of declaring) {
      let call = request(app)[method as 'get' | 'post' | 'delete'](concrete(path));
      for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
      const answer = await (body === undefined ? call : call.send(body));
      expect({ operation: `${method} ${path}`, status: answer.status, envelope: Array.isArray(answer.body?.errors) }).toEqual({
        operation: `${method} ${path}`,
        status: Number(status),
        envelope: true,
      });
    }
  });

  it('declares 415 on every state-changing control operation, and 404 on every one that takes an id', async () => {
    const document = await servedDocument();
    for (const { method, path, operation } of operations(document).filter(({ path }) => path.startsWith('/_sandbox'))) {
      const statuses = Object.keys(operation.responses);
      expect({ operation: `${method} ${path}`, has415: statuses.includes('415') }).toEqual({ operation: `${method} ${path}`, has415: method !== 'get' });
      if (path.includes('{id}')) expect({ operation: `${method} ${path}`, has404: statuses.includes('404') }).toEqual({ operation: `${method} ${path}`, has404: true });
    }
  });
});

describe('the HAR schema of GET /_sandbox/journal.har', () => {
  it('validates a real GET /_sandbox/journal.har: accepted, refused, injected and outbound entries', async () => {
    const document = await servedDocument();
    const sandbox = await testSandbox({ posOrderUrl: 'http://127.0.0.1:9/order', dispatch: { attempts: 1 } });
    expect((await postRefund(sandbox.app)).status).toBe(200);
    expect((await postRefund(sandbox.app, { headers: { Authorization: 'Bearer not-a-token' } })).status).toBe(401);
    expect((await postRefund(sandbox.app, { headers: { 'x-sandbox-fault': 'status=503' } })).status).toBe(503);
    expect((await putMenu(sandbox.app, { Items: [] })).status).toBe(400);
    expect((await request(sandbox.app).post('/_sandbox/orders').send({ template: 'standard' })).status).toBe(202);
    await sandbox.orders.settled();

    const har = (await request(sandbox.app).get('/_sandbox/journal.har')).body as { log: { entries: Array<Record<string, unknown>> } };
    expect(har.log.entries.map((entry) => entry._direction)).toEqual(expect.arrayContaining(['inbound', 'outbound']));
    const validate = schemaValidator(document, '/paths/~1_sandbox~1journal.har/get/responses/200/content/application~1json/schema');
    expect({ errors: validate(har) ? null : validate.errors }).toEqual({ errors: null });
    // The schema pins what the sandbox writes: a field of its own without the underscore HAR asks for is refused.
    const [first, ...rest] = har.log.entries;
    expect(validate({ log: { ...har.log, entries: [{ ...first, journalId: 'j-1' }, ...rest] } })).toBe(false);
    expect(validate({ log: { ...har.log, entries: [{ ...first, _anything: 1 }, ...rest] } })).toBe(true);
  });
});

describe('npm run lint:openapi', () => {
  it('finds no error in the committed openapi.json, and only the warning redocly.yaml accepts', async () => {
    const cli = `${PACKAGE_ROOT}/node_modules/@redocly/cli/bin/cli.js`;
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', OPENAPI_FILE, '--format=json'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string }> };
    expect({ errors: report.totals.errors, warnings: report.problems.map((problem) => problem.ruleId) }).toEqual({ errors: 0, warnings: ['info-license'] });
  }, 30_000);
});
