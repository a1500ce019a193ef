import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { fileStorage } from '../store/segment-storage.js';
import { journalSummary } from '../journal/journal-entry.js';
import { postRefund, testSandbox } from './helpers.js';

const ADDED_AT = '2026-11-21T10:00:00.000Z';

function postFaults(app: Express, body: unknown) {
  return request(app).post('/_sandbox/faults').set('content-type', 'application/json').send(JSON.stringify(body));
}

describe('/_sandbox/faults', () => {
  it('adds a rule, shows what it has left, and forgets it once used up', async () => {
    const { app } = await testSandbox();
    const added = await postFaults(app, { match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2 });
    expect(added.status).toBe(201);
    expect(added.headers.location).toBe('/_sandbox/faults/fault-1');
    const rule = { id: 'fault-1', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2, source: 'api', addedAt: ADDED_AT };
    expect(added.body).toEqual({ ...rule, seen: 0, fired: 0, left: 2, skipping: 0 });
    await postRefund(app);
    expect((await request(app).get('/_sandbox/faults')).body).toEqual([{ ...rule, seen: 1, fired: 1, left: 1, skipping: 0 }]);
    await postRefund(app);
    expect((await request(app).get('/_sandbox/faults')).body).toEqual([]);
    expect((await request(app).get('/_sandbox/faults/fault-1')).status).toBe(404);
  });

  it('adds a list in its order, in front of the rules already there', async () => {
    const { app } = await testSandbox();
    await postFaults(app, { id: 'old', action: { kind: 'drop' } });
    const added = await postFaults(app, [{ id: 'a', action: { kind: 'hang' } }, { id: 'b', action: { kind: 'malformed' } }]);
    expect(added.status).toBe(201);
    expect(added.body.map((rule: { id: string }) => rule.id)).toEqual(['a', 'b']);
    expect((await request(app).get('/_sandbox/faults')).body.map((rule: { id: string }) => rule.id)).toEqual(['a', 'b', 'old']);
  });

  it('removes one rule, then all', async () => {
    const { app } = await testSandbox();
    await postFaults(app, [{ action: { kind: 'drop' } }, { action: { kind: 'hang' } }, { action: { kind: 'malformed' } }]);
    const removed = await request(app).delete('/_sandbox/faults/fault-2');
    expect(removed.body).toMatchObject({ id: 'fault-2', action: { kind: 'hang' } });
    expect((await request(app).delete('/_sandbox/faults/fault-2')).body).toEqual({
      errors: [{ code: 'NOT_FOUND', message: "no fault rule 'fault-2' in force (a rule used up expires); GET /_sandbox/faults lists them" }],
    });
    expect((await request(app).delete('/_sandbox/faults')).body).toEqual({ deleted: 2 });
    expect((await request(app).get('/_sandbox/faults')).body).toEqual([]);
  });

  it('refuses a bad rule with every problem, and adds nothing', async () => {
    const { app } = await testSandbox();
    const response = await postFaults(app, [{ action: { kind: 'status' } }, { match: { direction: 'sideways' }, action: { kind: 'delay', ms: 10, status: 500 } }]);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        { code: 'INVALID_REQUEST', message: '[0].action.status is required for kind status' },
        { code: 'INVALID_REQUEST', message: '[1].match.direction must be one of "inbound", "outbound", got string "sideways"' },
        { code: 'INVALID_REQUEST', message: '[1].action.status is not a parameter of kind delay (it takes ms)' },
      ],
    });
    expect((await request(app).get('/_sandbox/faults')).body).toEqual([]);
  });

  it('refuses a body that is not JSON, and an id already in force', async () => {
    const { app } = await testSandbox();
    const notJson = await request(app).post('/_sandbox/faults').set('content-type', 'application/json').send('{"action":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0].message).toMatch(/^body is not valid JSON/);
    await postFaults(app, { id: 'outage', action: { kind: 'drop' } });
    expect((await postFaults(app, { id: 'outage', action: { kind: 'hang' } })).body).toEqual({
      errors: [{ code: 'ALREADY_EXISTS', message: "a fault rule 'outage' is already in force; DELETE /_sandbox/faults/outage first, or give the new rule another id" }],
    });
  });

  it('resets to the rules of the start (--faults), with fresh counters', async () => {
    const sandbox = await testSandbox({ faults: [{ id: 'outage', action: { kind: 'status', status: 503 }, times: 3 }] });
    await postRefund(sandbox.app);
    await postFaults(sandbox.app, { action: { kind: 'drop' } });
    const reset = await request(sandbox.app).post('/_sandbox/reset');
    expect(reset.body.faults).toBe(1);
    expect((await request(sandbox.app).get('/_sandbox/faults')).body).toEqual([
      { id: 'outage', action: { kind: 'status', status: 503 }, times: 3, source: 'file', addedAt: ADDED_AT, seen: 0, fired: 0, left: 3, skipping: 0 },
    ]);
  });

  it('keeps the rules and their counters in the data file across a restart; --faults replaces them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-faults-'));
    try {
      const file = join(dir, 'db.json');
      const first = await testSandbox({ storage: fileStorage(file) });
      await postFaults(first.app, { action: { kind: 'status', status: 503 }, times: 3 });
      expect((await postRefund(first.app)).status).toBe(503);
      await first.store.commit();
      expect(JSON.parse(readFileSync(file, 'utf8')).faults).toMatchObject([{ id: 'fault-1', fired: 1 }]);

      const second = await testSandbox({ storage: fileStorage(file) });
      expect((await request(second.app).get('/_sandbox/faults')).body).toMatchObject([{ id: 'fault-1', seen: 1, fired: 1, left: 2 }]);
      expect(second.faults.startedWith).toBe('stored');

      const third = await testSandbox({ storage: fileStorage(file), faults: [{ id: 'slow', action: { kind: 'delay', ms: 1 } }] });
      expect((await request(third.app).get('/_sandbox/faults')).body.map((rule: { id: string }) => rule.id)).toEqual(['slow']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('filters the journal by the rule that acted, or by whether any did', async () => {
    const { app } = await testSandbox();
    await postFaults(app, { id: 'once', action: { kind: 'status', status: 500 }, times: 1 });
    await postRefund(app);
    await postRefund(app);
    const statuses = async (query: string) => (await request(app).get(`/_sandbox/journal?${query}`)).body.map((entry: { response: { status: number } }) => entry.response.status);
    expect(await statuses('fault=once')).toEqual([500]);
    expect(await statuses('fault=true')).toEqual([500]);
    expect(await statuses('fault=false')).toEqual([200]);
  });

  it('names the rule in the HAR export and in the journal event summary', async () => {
    const sandbox = await testSandbox();
    await postFaults(sandbox.app, { id: 'once', action: { kind: 'status', status: 500 }, times: 1 });
    await postRefund(sandbox.app);
    const [harEntry] = (await request(sandbox.app).get('/_sandbox/journal.har')).body.log.entries;
    expect(harEntry._fault).toEqual({ rule: 'once', kind: 'status', source: 'api' });
    expect(journalSummary(sandbox.journal.list()[0]!).fault).toBe('once');
  });
});

describe('GET /_sandbox/fault-scripts', () => {
  it('lists every ready script of fixtures/faults/ by name, each with its rules checked, to add as they are', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/fault-scripts');
    expect(response.status).toBe(200);
    const scripts = response.body as Array<{ name: string; rules: Array<{ id: string }> }>;
    expect(scripts.map((script) => script.name)).toEqual(['duplicate-deliveries', 'flaky-network', 'forged-tokens-to-pos', 'rate-limited', 'service-outage', 'slow-service']);
    const outage = scripts.find((script) => script.name === 'service-outage')!;
    const added = await request(app).post('/_sandbox/faults').send(outage.rules);
    expect(added.status).toBe(201);
    expect((await request(app).get('/_sandbox/faults')).body.map((rule: { id: string }) => rule.id)).toEqual(['outage']);
  });
});

