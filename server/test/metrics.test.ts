/**
 * GET /metrics of a hosted sandbox: Prometheus's text format, read by a parser we did not write
 * (parse-prometheus-text-format), with the counters moving as requests flow; the operator's alone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { closeServers, listen } from './live.js';
import { ALPHA, BETA, OPERATOR, startHosted, type HostedTest } from './hosted-partners.js';
import { InstanceMetrics, routeLabel } from '../hosted/instance-metrics.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }>;
}

let test: HostedTest | undefined;
afterEach(() => test?.close());

let lastText = '';
async function scrape(app: HostedTest['app']): Promise<Family[]> {
  const answer = await request(app).get('/metrics').set('authorization', `Bearer ${OPERATOR}`);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  lastText = answer.text;
  return parsePrometheusTextFormat(answer.text) as Family[];
}

/** The value of the series of `name` whose labels include `labels`, 0 when there is none. */
function valueOf(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((one) => one.name === name);
  const series = family?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value));
  return Number(series?.value ?? series?.count ?? 0);
}

describe('GET /metrics', () => {
  it('counts requests by partner class, route and status, with their latency, as they flow', async () => {
    test = await startHosted({}, { metrics: new InstanceMetrics() });
    const before = await scrape(test.app);
    await test.refund(ALPHA, 'POS-STD-1001').expect(200);
    await test.refund(BETA, 'POS-STD-1001').expect(200);
    await test.refund(ALPHA, 'POS-STD-1001', { key: 'not-the-key-'.padEnd(40, 'x') }).expect(401);
    const after = await scrape(test.app);
    const refunds = (families: Family[], labels: Record<string, string>) => valueOf(families, 'pos_sandbox_requests_total', { route: '/order/refund', ...labels });
    expect(refunds(after, { partner_class: 'partner', status: '200', hop: 'client' }) - refunds(before, { partner_class: 'partner', status: '200', hop: 'client' })).toBe(2);
    // A signature no partner's: refused at the front, counted as nobody's.
    expect(refunds(after, { partner_class: 'nobody', status: '401' })).toBe(1);
    const latency = after.find((family) => family.name === 'pos_sandbox_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    expect(Object.keys(latency.metrics[0]!.buckets!)).toContain('+Inf');
    // The parser merges a histogram's labelled series into one: the count of one route is read from the text.
    expect(/^pos_sandbox_request_duration_seconds_count\{route="\/order\/refund"\} (\d+)$/m.exec(lastText)?.[1]).toBe('3');
    expect(valueOf(after, 'pos_sandbox_partners')).toBe(2);
    expect(valueOf(after, 'pos_sandbox_partners_led')).toBe(2);
    // The scrapes themselves are requests of the operator's.
    expect(valueOf(after, 'pos_sandbox_requests_total', { route: '/metrics', partner_class: 'operator', status: '200' })).toBe(1);
  });

  it('counts quota refusals by quota', async () => {
    test = await startHosted({ alpha: { quotas: { requestsPerSecond: 1, burst: 1 } } }, { metrics: new InstanceMetrics() });
    await test.refund(ALPHA, 'POS-STD-1001').expect(200);
    await test.refund(ALPHA, 'POS-STD-1001').expect(429);
    expect(valueOf(await scrape(test.app), 'pos_sandbox_quota_refusals_total', { quota: 'requests' })).toBe(1);
  });

  it('bounds the deliveries across every partner (deliveriesInAll), and shows those under way', async () => {
    const loopback = { egress: { allow: ['http://127.0.0.1:*'], allowNetworks: ['127.0.0.0/8'] } };
    const hosted = await startHosted({ alpha: loopback, beta: loopback, file: { quotas: { deliveriesInAll: 2 } } }, { metrics: new InstanceMetrics() });
    test = hosted;
    // A POS that takes each order and never answers while the test runs.
    const waiting: ServerResponse[] = [];
    let arrived: () => void = () => undefined;
    const url = await listen((_req: IncomingMessage, res: ServerResponse) => {
      waiting.push(res);
      arrived();
    });
    const twoArrived = new Promise<void>((resolve) => (arrived = () => waiting.length === 2 && resolve()));
    const order = (admin: string) =>
      request(hosted.app).post('/_sandbox/orders').set({ authorization: `Bearer ${admin}`, 'content-type': 'application/json' }).send(JSON.stringify({ template: 'standard', locationId: 'loc-std-001', posOrderUrl: `${url}/order` }));
    expect([(await order(ALPHA.admin)).status, (await order(BETA.admin)).status]).toEqual([202, 202]);
    await twoArrived;
    const refused = await order(ALPHA.admin);
    expect([refused.status, refused.body.errors[0].message]).toEqual([
      429,
      "this sandbox is delivering 2 orders to its partners' POS systems already, the most at once (deliveriesInAll), a quota of this sandbox (docs/hosting.md, \"Exposing it to partners\"); nothing was created or sent: send it again once one ends",
    ]);
    const families = await scrape(hosted.app);
    expect([valueOf(families, 'pos_sandbox_order_deliveries_in_flight'), valueOf(families, 'pos_sandbox_quota_refusals_total', { quota: 'deliveries' })]).toEqual([2, 1]);
    for (const res of waiting) res.destroy();
    await closeServers();
  });

  it("is the operator's alone: a partner's admin token gets 403, none 401, both in the envelope", async () => {
    test = await startHosted({}, { metrics: new InstanceMetrics() });
    const partner = await request(test.app).get('/metrics').set('authorization', `Bearer ${ALPHA.admin}`);
    expect([partner.status, partner.body]).toEqual([403, { errors: [{ code: 'FORBIDDEN', message: "GET /metrics is the operator's: it counts every partner of this instance, and a partner's admin token does not read it" }] }]);
    const none = await request(test.app).get('/metrics');
    expect([none.status, none.body]).toEqual([401, { errors: [{ code: 'UNAUTHORIZED', message: "GET /metrics needs Authorization: Bearer <the operator's token> (the partners file's operatorToken)" }] }]);
    const post = await request(test.app).post('/metrics').set('authorization', `Bearer ${OPERATOR}`);
    expect([post.status, post.headers.allow]).toEqual([405, 'GET']);
  });
});

describe('routeLabel', () => {
  it.each([
    ['/v2/order/refund', '/order/refund'],
    ['/v1/pos/openapi/menu?x=1', '/menu'],
    ['/order/status/', '/order/status'],
    ['/_sandbox/journal/j-000001', '/_sandbox/journal'],
    ['/_sandbox', '/_sandbox'],
    ['/metrics', '/metrics'],
    ['/v2/order/refund/POS-1', 'other'],
  ])('labels %s as %s: a bounded set, never the path as sent', (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });

  it('labels a path of 5,000 characters as other', () => {
    expect(routeLabel('/x'.repeat(2500))).toBe('other');
  });
});
