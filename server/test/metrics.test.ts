/**
 * GET /metrics of a hosted sandbox: Prometheus's text format, read by a parser we did not write
 * (parse-prometheus-text-format), with the counters moving as requests flow; the operator's alone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import request from 'supertest';
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
