/**
 * Properties of POST /order/refund, POST /order/status and PUT /menu under hostile input, over real HTTP:
 * no 5xx and no crash, the §2.3 envelope of the endpoint's family on every 4xx, no state change on a refusal,
 * and valid requests still accepted (so no property passes by refusing everything).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { acceptedCases, deepCases, encodingCases, fieldCases, headerCases, hugeCases, posCase, type PosCaseContext } from './pos-cases.js';
import { nonBlankString } from './nasty-text.js';
import { startFuzzTarget, sendAndCheck, TEST_CONTEXT, type FuzzTarget } from './in-process-target.js';
import { controlCall } from './control-cases.js';
import { assertProperty, PROPERTY_TIMEOUT_MS } from './run-property.js';
import { validToken } from './token-cases.js';
import type { WireCase } from './wire-case.js';

let target: FuzzTarget;
beforeEach(async () => {
  target = await startFuzzTarget();
});
afterEach(async () => {
  await target.close();
});

/** Every case of `cases` is answered without 5xx or crash, with the envelope on a 4xx, and a refusal changes nothing. */
async function holdsFor(cases: (ctx: PosCaseContext) => fc.Arbitrary<WireCase>, numRuns: number): Promise<void> {
  await assertProperty(
    fc.asyncProperty(cases(TEST_CONTEXT), async (wire) => {
      await sendAndCheck(target, wire);
    }),
    numRuns,
  );
  expect((await target.send(controlCall('GET', '/health'))).ok).toBe(true);
}

describe('the POS endpoints under hostile input (property)', () => {
  it('answer bodies with any field wrong, missing or doubled, any JSON, or no JSON: no 5xx, the envelope on a 4xx, no state change', async () => {
    await holdsFor(fieldCases, 150);
  }, PROPERTY_TIMEOUT_MS);

  it('answer bodies nested up to 20,000 deep the same way, and stay up', async () => {
    await holdsFor(deepCases, 30);
  }, PROPERTY_TIMEOUT_MS);

  it('answer strings and arrays up to a little over the 1 MiB limit the same way', async () => {
    await holdsFor(hugeCases, 10);
  }, PROPERTY_TIMEOUT_MS);

  it('answer odd headers (content types, charsets, doubled Authorization, odd locations, 4 KB values) the same way', async () => {
    await holdsFor(headerCases, 150);
  }, PROPERTY_TIMEOUT_MS);

  it('answer every Content-Encoding, over a body compressed that way or not, the same way', async () => {
    await holdsFor(encodingCases, 60);
  }, PROPERTY_TIMEOUT_MS);
});

describe('the POS endpoints still accept valid requests (property)', () => {
  it('accept a refund of any ExternalId that is not blank, and any menu update of known items with whole prices: 200', async () => {
    await assertProperty(
      fc.asyncProperty(acceptedCases(TEST_CONTEXT), async (wire) => {
        const sent = await sendAndCheck(target, wire, { checkState: false });
        expect(sent.ok && sent.answer.status).toBe(200);
      }),
      80,
    );
  }, PROPERTY_TIMEOUT_MS);

  it('accept ACCEPTED or REJECTED, with any Reason, for an order awaiting its status: 200', async () => {
    const decision = fc.record({
      token: validToken(TEST_CONTEXT, 'loc-std-001'),
      status: fc.constantFrom('ACCEPTED', 'REJECTED'),
      reason: fc.option(nonBlankString, { nil: undefined }),
    });
    await assertProperty(
      fc.asyncProperty(decision, async ({ token, status, reason }) => {
        const created = await sendAndCheck(target, controlCall('POST', '/orders?wait=true', { template: 'standard' }), { checkState: false });
        const order = created.ok ? (JSON.parse(created.answer.body) as { OrderId: string; ExternalId: string; Status: string }) : undefined;
        expect(order?.Status).toBe('AWAITING_STATUS');
        const body = Buffer.from(JSON.stringify({ ExternalId: order!.ExternalId, Status: status, ...(reason === undefined ? {} : { Reason: reason }) }));
        const sent = await sendAndCheck(target, posCase(TEST_CONTEXT, 'status', { token: token.token, body, kind: 'valid status' }), { checkState: false });
        expect(sent.ok && sent.answer.status).toBe(200);
        expect(target.sandbox.orders.get(order!.OrderId)?.Status).toBe(status);
      }),
      20,
    );
  }, PROPERTY_TIMEOUT_MS);
});

