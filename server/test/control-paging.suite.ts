/** The lists of /_sandbox come a page at a time: still a JSON array, with a Link rel="next" header while more follow. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { nextPageLink } from '../control/control-query.js';
import { fileStorage } from '../store/segment-storage.js';
import { orderEnvelope, postRefund, testSandbox } from './helpers.js';

/** Follows the Link headers from `path`: each page's ids, and the Link each page answered with. */
async function walk(app: Express, path: string, idOf: (record: Record<string, string>) => string) {
  const pages: Array<{ ids: string[]; link: string | undefined }> = [];
  for (let next: string | undefined = path; next !== undefined; next = nextPageLink(pages.at(-1)!.link)) {
    const response = await request(app).get(next);
    expect(response.status).toBe(200);
    pages.push({ ids: response.body.map(idOf), link: response.headers.link });
  }
  return pages;
}

const tooLarge = (max: number, value: string) =>
  orderEnvelope('INVALID_REQUEST', `limit must be a whole number from 1 to ${max} (the largest page), got '${value}'; follow the Link rel="next" header for the rest`);

describe('GET /_sandbox/refunds, a page at a time', () => {
  async function fiveRefunds() {
    const sandbox = await testSandbox();
    for (let i = 1; i <= 5; i++) await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: `PAGE-${i}` }) });
    const newestFirst = sandbox.store.refunds.all().reverse().map((refund) => refund.id);
    return { ...sandbox, newestFirst };
  }

  it('answers the first page with a Link to the next, and the last page with none', async () => {
    const { app, newestFirst } = await fiveRefunds();
    const pages = await walk(app, '/_sandbox/refunds?limit=2', (refund) => refund.id!);
    expect(pages).toEqual([
      { ids: newestFirst.slice(0, 2), link: `</_sandbox/refunds?limit=2&after=${newestFirst[1]}>; rel="next"` },
      { ids: newestFirst.slice(2, 4), link: `</_sandbox/refunds?limit=2&after=${newestFirst[3]}>; rel="next"` },
      { ids: newestFirst.slice(4), link: undefined },
    ]);
  });

  it('keeps the filters in the Link, and answers all of a short list without one (default page 1000)', async () => {
    const { app, newestFirst } = await fiveRefunds();
    const pages = await walk(app, '/_sandbox/refunds?status=PENDING&limit=3', (refund) => refund.id!);
    expect(pages[0]!.link).toBe(`</_sandbox/refunds?status=PENDING&limit=3&after=${newestFirst[2]}>; rel="next"`);
    expect(pages.flatMap((page) => page.ids)).toEqual(newestFirst);
    expect(await walk(app, '/_sandbox/refunds', (refund) => refund.id!)).toEqual([{ ids: newestFirst, link: undefined }]);
  });

  it('answers 400 for a limit over 5000, naming the largest page', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/refunds?limit=5001');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(tooLarge(5000, '5001'));
  });

  it('answers 400 for a cursor that names no refund (after a reset, say)', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/refunds?after=id-404');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      orderEnvelope('INVALID_REQUEST', `after must be the id of one of the refunds, as the Link rel="next" header names it; there is none 'id-404' (a reset empties the list); start again without after`),
    );
  });
});

describe('GET /_sandbox/orders and /_sandbox/faults, a page at a time', () => {
  it('pages the orders oldest first, filters kept', async () => {
    const { app } = await testSandbox();
    const all = (await request(app).get('/_sandbox/orders')).body.map((order: { OrderId: string }) => order.OrderId);
    expect(all).toHaveLength(6);
    const pages = await walk(app, '/_sandbox/orders?limit=4', (order) => order.OrderId!);
    expect(pages).toEqual([
      { ids: all.slice(0, 4), link: `</_sandbox/orders?limit=4&after=${all[3]}>; rel="next"` },
      { ids: all.slice(4), link: undefined },
    ]);
    const accepted = await walk(app, '/_sandbox/orders?status=ACCEPTED&location=loc-std-001&limit=1', (order) => order.OrderId!);
    // No Link once nothing that the filter takes follows: no empty last page.
    expect(accepted.map((page) => page.ids)).toEqual([['ord-std-0001'], ['ord-std-0002']]);
    expect(accepted[0]!.link).toBe('</_sandbox/orders?status=ACCEPTED&location=loc-std-001&limit=1&after=ord-std-0001>; rel="next"');
  });

  it('answers 400 for a limit over 5000 and for an unknown cursor', async () => {
    const { app } = await testSandbox();
    expect((await request(app).get('/_sandbox/orders?limit=9999')).body).toEqual(tooLarge(5000, '9999'));
    expect((await request(app).get('/_sandbox/orders?after=ord-none')).body).toEqual(
      orderEnvelope('INVALID_REQUEST', `after must be the id of one of the orders, as the Link rel="next" header names it; there is none 'ord-none' (a reset empties the list); start again without after`),
    );
  });

  it('pages the fault rules in the order they are tried', async () => {
    const { app } = await testSandbox();
    const rules = ['r1', 'r2', 'r3'].map((id) => ({ id, match: { path: '/order/refund' }, action: { kind: 'status', status: 503 } }));
    expect((await request(app).post('/_sandbox/faults').send(rules)).status).toBe(201);
    const pages = await walk(app, '/_sandbox/faults?limit=2', (rule) => rule.id!);
    expect(pages).toEqual([
      { ids: ['r1', 'r2'], link: '</_sandbox/faults?limit=2&after=r2>; rel="next"' },
      { ids: ['r3'], link: undefined },
    ]);
    expect((await request(app).get('/_sandbox/faults?after=r9')).status).toBe(400);
  });
});

describe('GET /_sandbox/journal, a page at a time', () => {
  it('names the next page with before=, and keeps after= as the filter it was', async () => {
    const sandbox = await testSandbox();
    for (let i = 1; i <= 5; i++) await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: `J-${i}` }) });
    const pages = await walk(sandbox.app, '/_sandbox/journal?after=j-000001&limit=2', (entry) => entry.id!);
    expect(pages).toEqual([
      { ids: ['j-000005', 'j-000004'], link: '</_sandbox/journal?after=j-000001&limit=2&before=j-000004>; rel="next"' },
      { ids: ['j-000003', 'j-000002'], link: undefined },
    ]);
  });

  it('answers an empty page for a cursor the journal no longer keeps, and 400 for a limit over 1000', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app);
    await request(sandbox.app).delete('/_sandbox/journal');
    const dropped = await request(sandbox.app).get('/_sandbox/journal?before=j-000001');
    expect([dropped.status, dropped.body, dropped.headers.link]).toEqual([200, [], undefined]);
    expect((await request(sandbox.app).get('/_sandbox/journal?limit=1001')).body).toEqual(tooLarge(1000, '1001'));
  });
});

describe('GET /_sandbox/refunds after a restart', () => {
  it('answers whole refunds, filtered on the fields a start read of each line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refund-pages-'));
    try {
      const first = await testSandbox({ storage: fileStorage(join(dir, 'db.json')) });
      for (let i = 1; i <= 3; i++) await postRefund(first.app, { body: JSON.stringify({ ExternalId: `PAGE-${i}` }) });
      await first.refunds.runDue();
      const written = first.store.refunds.all();
      expect(written.map((refund) => refund.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
      first.close();

      const second = await testSandbox({ storage: fileStorage(join(dir, 'db.json')) });
      // Kept as their lines: the store holds only what its indexes read.
      expect(second.store.refunds.views()[0]).not.toHaveProperty('detail');
      expect((await request(second.app).get('/_sandbox/refunds')).body).toEqual([...written].reverse());
      const one = await request(second.app).get('/_sandbox/refunds?externalId=PAGE-2&status=FAILED&location=loc-std-001');
      expect(one.body).toEqual([written[1]]);
      expect((await request(second.app).get('/_sandbox/refunds?status=PENDING')).body).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
