/**
 * /_sandbox/stress-runs: what a `pos-sandbox stress` run tells the sandbox as it goes, held for the dashboard; every
 * bad view refused whole with each problem named, and the sandbox's memory of runs bounded.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { orderEnvelope, testSandbox } from './helpers.js';
import { STRESS_SILENT_MS, STRESS_VIEW_LIMITS, type StressRunView } from '../stress/stress-run-view.js';
import { KEPT_RUNS } from '../stress/stress-routes.js';

const VIEW: StressRunView = { mode: 'hunt', seed: 42, state: 'running', planned: 500, sent: 0, passed: 0, shrinkSends: 0, findings: [], recent: [] };
const json = (body: unknown) => JSON.stringify(body);

describe('/_sandbox/stress-runs', () => {
  it('takes a run, its views as it goes, and shows the latest, each change a stress event', async () => {
    const sandbox = await testSandbox();
    const events: unknown[] = [];
    sandbox.events.on('event', (event) => event.type === 'stress' && events.push(event.data));
    const created = await request(sandbox.app).post('/_sandbox/stress-runs').set('content-type', 'application/json').send(json(VIEW));
    expect([created.status, created.headers.location]).toEqual([201, '/_sandbox/stress-runs/stress-1']);
    expect(created.body).toEqual({ ...VIEW, id: 'stress-1', startedAt: expect.any(String), updatedAt: expect.any(String) });
    const later: StressRunView = {
      ...VIEW,
      state: 'done',
      sent: 500,
      passed: 499,
      shrinkSends: 12,
      verdict: 'FOUND 1 failure in 500 orders.',
      findings: [{ kind: '5xx', message: 'the POS answered 500 to try 1 (j-000031): …', items: 1, file: 'stress-reports/x/failures/5xx.json' }],
      recent: [{ orderId: 'ord-1', locationId: 'loc-std-001', ok: false, kind: '5xx', decidedMs: 12, shrinking: true }],
    };
    const put = await request(sandbox.app).put('/_sandbox/stress-runs/stress-1').set('content-type', 'application/json').send(json(later));
    expect([put.status, put.body]).toEqual([200, { ...later, id: 'stress-1', startedAt: created.body.startedAt, updatedAt: expect.any(String) }]);
    expect((await request(sandbox.app).get('/_sandbox/stress-runs/stress-1')).body).toEqual(put.body);
    expect((await request(sandbox.app).get('/_sandbox/stress-runs')).body).toEqual([put.body]);
    expect(events).toEqual([
      { id: 'stress-1', state: 'running', sent: 0, passed: 0, findings: 0 },
      { id: 'stress-1', state: 'done', sent: 500, passed: 499, findings: 1 },
    ]);
  });

  it.each<[string, unknown, string[]]>([
    ['not JSON', '{"mode":', ['body is not valid JSON: Unexpected end of JSON input']],
    ['wrong types and an unknown field', { ...VIEW, seed: -1, state: 'paused', sent: '3', colour: 'red' }, ['colour is not an allowed field', 'seed must be 0 or more, got number -1', 'state must be one of "running", "shrinking", "done", "stopped", got string "paused"', 'sent must be a whole number, got string "3"']],
    ['more recent orders than a view holds', { ...VIEW, recent: Array.from({ length: STRESS_VIEW_LIMITS.recent + 1 }, (_, n) => ({ orderId: `ord-${n}`, locationId: 'loc-std-001', ok: true, decidedMs: 1, shrinking: false })) }, [`recent must have at most ${STRESS_VIEW_LIMITS.recent} items, got ${STRESS_VIEW_LIMITS.recent + 1}`]],
    ['a finding without its message', { ...VIEW, findings: [{ kind: '5xx', items: 1 }] }, ['findings[0].message is required']],
  ])('refuses %s with 400 INVALID_REQUEST naming each problem, and keeps nothing', async (_name, body, messages) => {
    const sandbox = await testSandbox();
    const response = await request(sandbox.app).post('/_sandbox/stress-runs').set('content-type', 'application/json').send(typeof body === 'string' ? body : json(body));
    expect([response.status, response.body]).toEqual([400, orderEnvelope('INVALID_REQUEST', ...messages)]);
    expect((await request(sandbox.app).get('/_sandbox/stress-runs')).body).toEqual([]);
  });

  it('answers 404 for a run it does not hold, to GET and PUT alike', async () => {
    const sandbox = await testSandbox();
    const message = `no stress run 'stress-9'; GET /_sandbox/stress-runs lists the last ${KEPT_RUNS}`;
    for (const response of [await request(sandbox.app).get('/_sandbox/stress-runs/stress-9'), await request(sandbox.app).put('/_sandbox/stress-runs/stress-9').set('content-type', 'application/json').send(json(VIEW))]) {
      expect([response.status, response.body]).toEqual([404, orderEnvelope('NOT_FOUND', message)]);
    }
  });

  it(`keeps the last ${KEPT_RUNS} runs, and shows a run silent for a minute as stopped`, async () => {
    const sandbox = await testSandbox();
    for (let n = 0; n < KEPT_RUNS + 3; n++) await request(sandbox.app).post('/_sandbox/stress-runs').set('content-type', 'application/json').send(json({ ...VIEW, seed: n }));
    const kept = (await request(sandbox.app).get('/_sandbox/stress-runs')).body as Array<{ id: string; seed: number; state: string; verdict?: string }>;
    expect(kept.map((run) => run.seed)).toEqual(Array.from({ length: KEPT_RUNS }, (_, n) => KEPT_RUNS + 2 - n));
    expect((await request(sandbox.app).get('/_sandbox/stress-runs/stress-1')).status).toBe(404);
    sandbox.clock.advance(STRESS_SILENT_MS + 5000);
    const silent = (await request(sandbox.app).get(`/_sandbox/stress-runs/${kept[0]!.id}`)).body as { state: string; verdict: string };
    expect(silent).toMatchObject({ state: 'stopped', verdict: 'no word from the run for 65 s: it was stopped, or lost the sandbox' });
  });
});
