import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanHeaders, posToken, postRefund, testSandbox } from './helpers.js';
import { fileStorage } from '../store/segment-storage.js';

const refundOf = (ExternalId: string) => JSON.stringify({ ExternalId });

describe('refund processing (§4.1 rule 2)', () => {
  it('records PENDING, then PROCESSED after the delay, and marks the order REFUNDED', async () => {
    const sandbox = await testSandbox({ refundDelayMs: 1000 });
    const accepted = await postRefund(sandbox.app, { body: refundOf('POS-STD-1001') });
    expect(accepted.status).toBe(200);
    const refundId = accepted.headers['x-sandbox-refund-id'];

    const pending = await request(sandbox.app).get('/_sandbox/refunds');
    expect(pending.body).toEqual([
      {
        id: refundId,
        externalId: 'POS-STD-1001',
        locationId: 'loc-std-001',
        partner: 'demo-pos',
        status: 'PENDING',
        requestId: 'id-1',
        journalId: 'j-000001',
        acceptedAt: '2026-11-21T10:00:00.000Z',
        dueAt: '2026-11-21T10:00:01.000Z',
      },
    ]);

    sandbox.clock.advance(999);
    expect(await sandbox.refunds.runDue()).toEqual([]);
    sandbox.clock.advance(1);
    await sandbox.refunds.runDue();

    const done = await request(sandbox.app).get(`/_sandbox/refunds?externalId=POS-STD-1001`);
    expect(done.body).toEqual([
      {
        ...pending.body[0],
        status: 'PROCESSED',
        detail: 'order ord-std-0001 refunded',
        orderId: 'ord-std-0001',
        processedAt: '2026-11-21T10:00:01.000Z',
      },
    ]);
    expect((await request(sandbox.app).get('/_sandbox/orders/ord-std-0001')).body.Status).toBe('REFUNDED');
    const journal = await request(sandbox.app).get(`/_sandbox/journal/${pending.body[0].journalId}`);
    expect(journal.body).toMatchObject({ path: '/v2/order/refund', response: { status: 200 }, request: { body: { ExternalId: 'POS-STD-1001' } } });
  });

  it.each([
    ['an unknown ExternalId', 'loc-std-001', 'no-such-order', 'ORDER_NOT_FOUND', "no order with ExternalId 'no-such-order' at location 'loc-std-001'"],
    ['an unknown location', 'loc-elsewhere', 'POS-STD-1001', 'UNKNOWN_LOCATION', "location 'loc-elsewhere' is not a location of this partner"],
    ['a rejected order', 'loc-std-001', 'POS-STD-1003', 'ORDER_NOT_ACCEPTED', 'order ord-std-0003 is REJECTED, not ACCEPTED'],
    [
      "another brand's order at a hub",
      'loc-hub-001-noodles',
      'POS-HUB-2001',
      'ORDER_NOT_FOUND',
      "ExternalId 'POS-HUB-2001' is order ord-hub-0001 of location 'loc-hub-001-burgers', not of 'loc-hub-001-noodles'",
    ],
  ])('accepts a refund of %s with 200, then fails it with the reason', async (_case, location, externalId, reason, detail) => {
    const sandbox = await testSandbox();
    const token = posToken({ sub: location });
    const accepted = await postRefund(sandbox.app, { headers: { ...cleanHeaders(token), 'x-service-locationid': location }, body: refundOf(externalId) });
    expect(accepted.status).toBe(200);
    await sandbox.refunds.runDue();
    const [refund] = (await request(sandbox.app).get('/_sandbox/refunds')).body;
    expect(refund).toMatchObject({ status: 'FAILED', reason, detail, externalId, locationId: location });
  });

  it('fails a second refund of one order ALREADY_REFUNDED, with a DUPLICATE_REFUND finding', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app, { body: refundOf('POS-KIOSK-3001'), headers: { ...cleanHeaders(posToken({ sub: 'loc-kiosk-001' })), 'x-service-locationid': 'loc-kiosk-001' } });
    await sandbox.refunds.runDue();
    const second = await postRefund(sandbox.app, {
      body: refundOf('POS-KIOSK-3001'),
      headers: { ...cleanHeaders(posToken({ sub: 'loc-kiosk-001' })), 'x-service-locationid': 'loc-kiosk-001' },
    });
    expect(second.status).toBe(200);
    expect(second.headers['x-sandbox-findings']).toBe('1');
    await sandbox.refunds.runDue();
    const refunds = (await request(sandbox.app).get('/_sandbox/refunds')).body;
    expect(refunds.map((r: { status: string; reason?: string }) => [r.status, r.reason])).toEqual([
      ['FAILED', 'ALREADY_REFUNDED'],
      ['PROCESSED', undefined],
    ]);
    const entry = (await request(sandbox.app).get('/_sandbox/journal?limit=1')).body[0];
    expect(entry.findings).toEqual([
      {
        code: 'DUPLICATE_REFUND',
        section: '§4.1',
        message: `a refund of ExternalId 'POS-KIOSK-3001' at 'loc-kiosk-001' was already requested (${refunds[1].id}, PROCESSED); send one refund per order`,
      },
    ]);
  });

  it('stores nothing for a rejected refund, including a duplicate rejected under --strict', async () => {
    const sandbox = await testSandbox({ strict: true });
    expect((await postRefund(sandbox.app, { body: refundOf('') })).status).toBe(400);
    expect((await postRefund(sandbox.app, { body: refundOf('POS-STD-1002') })).status).toBe(200);
    const duplicate = await postRefund(sandbox.app, { body: refundOf('POS-STD-1002') });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].message).toMatch(/^strict mode: DUPLICATE_REFUND: /);
    expect((await request(sandbox.app).get('/_sandbox/refunds')).body).toHaveLength(1);
  });

  it('keeps the newest --refund-limit refunds: one dropped no longer draws DUPLICATE_REFUND, one kept still does', async () => {
    const sandbox = await testSandbox({ refundLimit: 2 });
    for (const externalId of ['POS-STD-1001', 'POS-STD-1002', 'POS-STD-1003']) {
      expect((await postRefund(sandbox.app, { body: refundOf(externalId) })).headers['x-sandbox-findings']).toBe('0');
      await sandbox.refunds.runDue();
    }
    const kept = (await request(sandbox.app).get('/_sandbox/refunds')).body as Array<{ externalId: string }>;
    expect(kept.map((refund) => refund.externalId)).toEqual(['POS-STD-1003', 'POS-STD-1002']);
    expect((await postRefund(sandbox.app, { body: refundOf('POS-STD-1001') })).headers['x-sandbox-findings']).toBe('0');
    expect((await postRefund(sandbox.app, { body: refundOf('POS-STD-1003') })).headers['x-sandbox-findings']).toBe('1');
  });

  it('keeps the same newest refunds across a restart, none decided twice, when all were accepted before any was decided', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refund-limit-'));
    try {
      const storage = () => fileStorage(join(dir, 'db.json'));
      const first = await testSandbox({ refundLimit: 2, storage: storage() });
      for (let n = 1; n <= 5; n++) await postRefund(first.app, { body: refundOf(`POS-LIMIT-${n}`) });
      await first.refunds.runDue();
      const ids = async (app: typeof first.app) => ((await request(app).get('/_sandbox/refunds')).body as Array<{ externalId: string; status: string }>).map((r) => `${r.externalId} ${r.status}`);
      expect(await ids(first.app)).toEqual(['POS-LIMIT-5 FAILED', 'POS-LIMIT-4 FAILED']);
      first.refunds.stop();
      const second = await testSandbox({ refundLimit: 2, storage: storage() });
      expect(await ids(second.app)).toEqual(['POS-LIMIT-5 FAILED', 'POS-LIMIT-4 FAILED']);
      expect(await second.refunds.runDue()).toEqual([]);
      second.refunds.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('decides refunds in the order they were accepted', async () => {
    const sandbox = await testSandbox({ refundDelayMs: 50 });
    await postRefund(sandbox.app, { body: refundOf('POS-STD-1001') });
    sandbox.clock.advance(10);
    await postRefund(sandbox.app, { body: refundOf('POS-STD-1001') });
    sandbox.clock.advance(50);
    const settled = await sandbox.refunds.runDue();
    expect(settled.map((refund) => refund.reason ?? refund.status)).toEqual(['PROCESSED', 'ALREADY_REFUNDED']);
  });
});
