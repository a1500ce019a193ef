/**
 * Properties of the control API under /_sandbox: odd bodies, ids, query strings and methods are answered without
 * a 5xx, in the lowercase envelope on a 4xx, and change nothing when refused; a read by id answers 200 only with
 * the resource of that id; the valid calls still succeed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { EXTERNAL_ID, fixtures } from '../helpers.js';
import { nastyString } from './nasty-text.js';
import { brokenSegment, controlCall, controlCases, eventsCases, idReadCases } from './control-cases.js';
import { startFuzzTarget, sendAndCheck, TEST_CONTEXT, type FuzzTarget } from './in-process-target.js';
import { posCase } from './pos-cases.js';
import { assertProperty, PROPERTY_TIMEOUT_MS } from './run-property.js';
import type { WireCase } from './wire-case.js';

let target: FuzzTarget;
beforeEach(async () => {
  target = await startFuzzTarget();
});
afterEach(async () => {
  await target.close();
});

const controlContext = () => ({ locations: TEST_CONTEXT.locations, posOrderUrl: target.stub.url });

async function holdsFor(cases: fc.Arbitrary<WireCase>, numRuns: number): Promise<void> {
  await assertProperty(
    fc.asyncProperty(cases, async (wire) => {
      await sendAndCheck(target, wire);
    }),
    numRuns,
  );
  expect((await target.send(controlCall('GET', '/health'))).ok).toBe(true);
}

describe('the control API under hostile input (property)', () => {
  it('answers odd fault rules, new orders and token requests: no 5xx, the lowercase envelope on a 4xx, no state change', async () => {
    await holdsFor(controlCases(controlContext(), { onlyBodies: true }), 150);
  }, PROPERTY_TIMEOUT_MS);

  it('answers every route with odd ids, query strings, methods and stray bodies the same way', async () => {
    await holdsFor(controlCases(controlContext()), 150);
  }, PROPERTY_TIMEOUT_MS);

  it('answers ids whose percent-encoding does not decode with a 4xx, never a 5xx', async () => {
    const reads = fc.tuple(fc.constantFrom('/locations/{id}/menu', '/orders/{id}', '/orders/{id}/resend', '/faults/{id}', '/journal/{id}'), brokenSegment);
    const cases = reads.map(([path, segment]) => controlCall(path.endsWith('resend') ? 'POST' : 'GET', path.replace('{id}', segment), undefined, `control ${path}`));
    await holdsFor(cases, 60);
  }, PROPERTY_TIMEOUT_MS);

  it('answers GET /events with a types filter that names no event type: 400 at once, not a stream', async () => {
    await holdsFor(eventsCases, 30);
  }, PROPERTY_TIMEOUT_MS);

  it('answers a new order naming no fixture template with a message that says which templates there are', async () => {
    const templates = Object.keys(fixtures.templates);
    const template = fc.oneof(fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'), nastyString).filter((name) => !templates.includes(name));
    await assertProperty(
      fc.asyncProperty(template, fc.option(fc.constantFrom(...TEST_CONTEXT.locations), { nil: undefined }), async (name, locationId) => {
        const sent = await sendAndCheck(target, controlCall('POST', '/orders', { template: name, ...(locationId ? { locationId } : {}) }));
        expect(sent.ok && sent.answer.status).toBe(400);
        expect(sent.ok && sent.answer.body).toContain('template must be one of');
      }),
      60,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('answers a read by id with 200 only when it found the resource of that id (prototype names are not ids)', async () => {
    await assertProperty(
      fc.asyncProperty(idReadCases, async ({ wire, id, read }) => {
        const sent = await sendAndCheck(target, wire, { checkState: false });
        if (!sent.ok || sent.answer.status !== 200) return;
        const body: unknown = sent.answer.body === '' ? undefined : JSON.parse(sent.answer.body);
        if (typeof body !== 'object' || body === null || !read.same(body as Record<string, unknown>, id)) {
          throw new Error(`GET ${wire.path} answered 200 with ${JSON.stringify(sent.answer.body.slice(0, 200))}, which is not the resource '${id}'`);
        }
      }),
      150,
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('the control API still serves valid calls', () => {
  it.each(['/health', '/partners', '/locations', '/locations/loc-std-001/menu', '/orders', '/orders/ord-std-0001', '/refunds', '/faults', '/journal', '/journal.har', '/openapi.json'])(
    'answers GET %s with 200 JSON',
    async (path) => {
      const sent = await sendAndCheck(target, controlCall('GET', path), { checkState: false });
      expect(sent.ok && sent.answer.status).toBe(200);
      expect(sent.ok && sent.answer.headers['content-type']).toMatch(/^application\/json/);
    },
  );

  it('mints a token for any known location and ttl from 1 s to 24 h, and a refund with it is accepted (property)', async () => {
    const request = fc.record({ locationId: fc.constantFrom(...TEST_CONTEXT.locations), ttl: fc.integer({ min: 1, max: 86_400 }) });
    await assertProperty(
      fc.asyncProperty(request, async ({ locationId, ttl }) => {
        const minted = await sendAndCheck(target, controlCall('POST', '/tokens', { locationId, ttl }), { checkState: false });
        expect(minted.ok && minted.answer.status).toBe(201);
        const { token } = JSON.parse(minted.ok ? minted.answer.body : '{}') as { token: string };
        const refund = posCase(TEST_CONTEXT, 'refund', { token, body: Buffer.from(JSON.stringify({ ExternalId: EXTERNAL_ID })), kind: 'refund with a minted token', headers: [['x-service-locationid', locationId]] });
        const sent = await sendAndCheck(target, refund, { checkState: false });
        expect(sent.ok && sent.answer.status).toBe(200);
      }),
      20,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('adds a valid fault rule (201), reads it back by id (200) and removes it (200)', async () => {
    const rule = { id: 'fz-rule', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 1 };
    const added = await sendAndCheck(target, controlCall('POST', '/faults', rule), { checkState: false });
    expect(added.ok && added.answer.status).toBe(201);
    const read = await sendAndCheck(target, controlCall('GET', '/faults/fz-rule'), { checkState: false });
    expect(read.ok && JSON.parse(read.answer.body)).toMatchObject({ id: 'fz-rule' });
    const removed = await sendAndCheck(target, controlCall('DELETE', '/faults/fz-rule'), { checkState: false });
    expect(removed.ok && removed.answer.status).toBe(200);
  }, PROPERTY_TIMEOUT_MS);
});
