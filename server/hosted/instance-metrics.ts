/** What an operator's Prometheus scrapes from each instance (GET /metrics), in a registry of its own; labels are few and bounded, and none names a partner. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Sandbox } from '../sandbox.js';
import { routePathOf } from '../http/route.js';
import { ROUTES } from '../routes.js';

/** Who a request was for, as the front saw it: a partner's, the operator's, or nobody's (refused there). */
export type PartnerClass = 'partner' | 'operator' | 'nobody' | 'any' | 'public';

/** The labels a path may have besides the control API's: each POS route's path, and the operator's and public paths as sent. */
const POS_PATHS = new Set(ROUTES.filter((route) => route.api === 'pos').map((route) => route.path));
const OTHER_PATHS = new Set(ROUTES.filter((route) => route.api === 'operator' || route.api === 'public').map((route) => route.path));

/** The route label of a path: one of the API's routes, `/_sandbox/<first part>`, or `other`. */
export function routeLabel(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!;
  const control = /^\/_sandbox(\/[A-Za-z-]{1,30})?/i.exec(path);
  if (control) return `/_sandbox${control[1]?.toLowerCase() ?? ''}`;
  if (OTHER_PATHS.has(path)) return path;
  const route = routePathOf(path);
  return POS_PATHS.has(route) ? route : 'other';
}

export class InstanceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'pos_sandbox_requests_total', help: 'Requests answered by this instance, by partner class, route, status and hop (client: from a client; forwarded: sent on by another instance)', labelNames: ['partner_class', 'route', 'status', 'hop'] as const, registers: [this.registry] });
  private readonly latency = new Histogram({ name: 'pos_sandbox_request_duration_seconds', help: 'How long this instance took to answer, by route', labelNames: ['route'] as const, buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [this.registry] });
  private ledCount: () => number = () => 0;
  private readonly leaders: Gauge = new Gauge({
    name: 'pos_sandbox_partners_led',
    help: 'Partners this instance leads now',
    registers: [this.registry],
    collect: (): void => this.leaders.set(this.ledCount()),
  });
  private readonly partners = new Gauge({ name: 'pos_sandbox_partners', help: 'Partners this instance serves (leads or sends on)', registers: [this.registry] });
  private readonly moves = new Counter({ name: 'pos_sandbox_partner_moves_total', help: 'Leads taken (in) and given up (out) by this instance, by why', labelNames: ['direction', 'why'] as const, registers: [this.registry] });
  private readonly activation = new Histogram({ name: 'pos_sandbox_activation_seconds', help: "How long a partner's sandbox took to be made when this instance took its lead", buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry] });
  private readonly deliveries = new Counter({ name: 'pos_sandbox_order_deliveries_total', help: 'Order delivery tries to POS systems, by try (first or retry) and answer class', labelNames: ['try', 'status_class'] as const, registers: [this.registry] });
  private deliveringCount: () => number = () => 0;
  private readonly delivering: Gauge = new Gauge({
    name: 'pos_sandbox_order_deliveries_in_flight',
    help: "Orders being delivered to the partners' POS systems now, across every partner of this instance",
    registers: [this.registry],
    collect: (): void => this.delivering.set(this.deliveringCount()),
  });
  private readonly quotaRefusals = new Counter({ name: 'pos_sandbox_quota_refusals_total', help: 'Requests refused by a quota of the partners file, by quota', labelNames: ['quota'] as const, registers: [this.registry] });

  /** `process`: the process's own metrics too (memory, CPU, event loop), which a server wants and a test does not. */
  constructor(options: { process?: boolean } = {}) {
    if (options.process) collectDefaultMetrics({ register: this.registry, prefix: 'pos_sandbox_' });
  }

  /** Counts and times a request as it is answered; `partnerClass` says whose it was, as the front found. */
  track(req: IncomingMessage, res: ServerResponse, partnerClass: PartnerClass): void {
    const started = process.hrtime.bigint();
    const route = routeLabel(req.url);
    // Read before the partner's sandbox sees the request: the headers are as they came.
    const hop = req.headers['x-sandbox-forwarded-by'] === undefined ? 'client' : 'forwarded';
    res.once('finish', () => {
      this.requests.inc({ partner_class: partnerClass, route, status: String(res.statusCode), hop });
      this.latency.observe({ route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
  }

  /** How many partners this instance serves, and a way to count those it leads, read at each scrape. */
  countPartners(all: number, led: () => number): void {
    this.partners.set(all);
    this.ledCount = led;
  }

  /** A lead taken (`in`, with how long the sandbox took to make) or given up (`out`). */
  moved(direction: 'in' | 'out', why: string, activationMs?: number): void {
    this.moves.inc({ direction, why });
    if (activationMs !== undefined) this.activation.observe(activationMs / 1000);
  }

  /** Where the deliveries under way are counted (the instance's deliveriesInAll slots). */
  countDeliveries(count: () => number): void {
    this.deliveringCount = count;
  }

  /** Counts what a partner's sandbox does that the operator watches: its deliveries, its quota refusals. */
  watch(sandbox: Sandbox): void {
    const firstTries = new Set<string>();
    sandbox.journal.on('added', (summary) => {
      if (summary.direction !== 'outbound') return;
      // The first try of a dispatch carries a request id not seen before; the tries after it repeat it.
      const retry = firstTries.has(summary.requestId);
      if (!retry) {
        firstTries.add(summary.requestId);
        if (firstTries.size > 10_000) firstTries.delete(firstTries.values().next().value!);
      }
      this.deliveries.inc({ try: retry ? 'retry' : 'first', status_class: summary.status === 0 ? 'none' : `${String(summary.status)[0]}xx` });
    });
    sandbox.quota.onRefused = (quota) => this.quotaRefusals.inc({ quota });
  }

  /** The Prometheus text exposition, and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
