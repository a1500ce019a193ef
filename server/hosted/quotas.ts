/** Pure: what one partner may use of a sandbox (docs/hosting.md), so one partner cannot slow the others; a laptop's bounds only keep the process alive. `null`: no limit. */
import { ApiError, envelopeFamilyFor } from '../errors.js';
import type { RequestHandler } from 'express';
import { routeFinder, type Route } from '../http/route.js';

export interface Quotas {
  /** Requests a second a partner may send, on average (POS API and control API alike); null: no limit. */
  requestsPerSecond: number | null;
  /** How many may come at once above that rate. */
  burst: number;
  /** Event streams (`GET /_sandbox/events`) open at once. */
  eventStreams: number;
  /** HAR exports (`GET /_sandbox/journal.har`) under way at once. */
  harExports: number;
  /** HAR exports started in any hour; null: no limit. */
  harExportsPerHour: number | null;
  /** How fast an export is written, in bytes a second: a whole journal is tens of megabytes; null: as fast as it goes. */
  harExportBytesPerSecond: number | null;
  /** Checklist runs the control API starts in any hour; null: no limit. */
  checklistRunsPerHour: number | null;
  /** Report folders kept; older ones are removed, with the orders their run made. null: all. */
  reportsKept: number | null;
  /** Days a report folder is kept; null: for ever. */
  reportMaxAgeDays: number | null;
  /** Requests a fault rule holds at once (hang, delay): each holds a connection open. */
  heldRequests: number;
  /** Orders being delivered to the POS at once (POST /_sandbox/orders, resends): each holds a connection to the POS until it ends. */
  deliveriesInFlight: number;
  /** Journal entries kept in memory. */
  journalEntries: number;
  /** Bytes of bodies and headers the journal keeps in memory, all entries together. */
  journalBytes: number;
  /** The largest body of a POS call. */
  bodyBytes: number;
}

/** The body limit every sandbox has: a §2 payload is a few KiB (a 500-item menu about 60). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** One person's sandbox: no rate, and bounds far past what a POS under test does. */
export const LAPTOP_QUOTAS: Quotas = {
  requestsPerSecond: null,
  burst: 0,
  eventStreams: 64,
  harExports: 4,
  harExportsPerHour: null,
  harExportBytesPerSecond: null,
  checklistRunsPerHour: null,
  reportsKept: null,
  reportMaxAgeDays: null,
  heldRequests: 1000,
  deliveriesInFlight: 500,
  journalEntries: 5000,
  journalBytes: 256 * 1024 * 1024,
  bodyBytes: MAX_BODY_BYTES,
};

/** Room for a POS under test and its checklist runs, and a bound on all that costs memory or time (docs/hosting.md). */
export const HOSTED_QUOTAS: Quotas = {
  requestsPerSecond: 20,
  burst: 40,
  eventStreams: 4,
  harExports: 1,
  harExportsPerHour: 60,
  harExportBytesPerSecond: 2 * 1024 * 1024,
  checklistRunsPerHour: 12,
  reportsKept: 20,
  reportMaxAgeDays: 30,
  heldRequests: 20,
  deliveriesInFlight: 50,
  journalEntries: 5000,
  journalBytes: 16 * 1024 * 1024,
  bodyBytes: MAX_BODY_BYTES,
};

/** HAR exports under way at once across every partner of a hosted process. */
export const HOSTED_HAR_EXPORTS_IN_ALL = 2;

/** Orders being delivered at once across every partner of a hosted process: each holds a connection to a POS. */
export const HOSTED_DELIVERIES_IN_ALL = 500;

/** The quota fields, in the order the docs and messages list them. */
export const QUOTA_FIELDS = Object.keys(LAPTOP_QUOTAS) as Array<keyof Quotas>;

/** `base` with the fields `given` sets (a partners file's defaults, then a partner's own). */
export function withQuotas(base: Quotas, ...given: Array<Partial<Quotas> | undefined>): Quotas {
  const result = { ...base };
  for (const layer of given) for (const field of QUOTA_FIELDS) if (layer?.[field] !== undefined) (result as Record<string, unknown>)[field] = layer[field];
  return result;
}

/** Pure: a token bucket: a partner at its rate is never refused, one faster is told how long until a token is back. */
export class RateBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: () => number,
  ) {
    this.tokens = burst;
    this.last = clock();
  }

  /** Takes a token: undefined when there was one, else the whole seconds to wait for the next. */
  take(): number | undefined {
    const now = this.clock();
    // A clock that went back (a test's, or the system's) adds nothing, and takes nothing away.
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }
}

/** One partner's quotas as kept: its bucket, its exports and the process's, and how often each refused (the health shows it); refusals are 429 with Retry-After. */

/** A count of things under way at once, shared by every partner of a process (the HAR exports of all). */
export class SharedSlots {
  private used = 0;

  /** How many are taken now. */
  get taken(): number {
    return this.used;
  }

  constructor(readonly limit: number) {}

  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }

  give(): void {
    this.used = Math.max(0, this.used - 1);
  }
}

const HOUR_MS = 60 * 60 * 1000;

/** Where the partners file sets each quota: named in every refusal, so a partner knows what to ask the operator for. */
const SET_IN = 'a quota of this sandbox (docs/hosting.md, "Exposing it to partners")';

export class QuotaBook {
  private readonly bucket: RateBucket | undefined;
  private exports = 0;
  private held = 0;
  /** Deliveries under way (startDelivery). */
  private delivering = 0;
  /** When each export of the last hour started (harExportsPerHour). */
  private readonly exportTimes: number[] = [];
  readonly refused = { requests: 0, eventStreams: 0, harExports: 0, checklistRuns: 0, heldRequests: 0, deliveries: 0 };
  /** Told of each refusal as it happens: an instance's metrics count them (instance-metrics.ts). */
  onRefused: ((quota: keyof QuotaBook['refused']) => void) | undefined;

  constructor(
    readonly quotas: Quotas,
    readonly partner: string,
    private readonly clock: () => number,
    private readonly allExports?: SharedSlots,
    private readonly allDeliveries?: SharedSlots,
  ) {
    this.bucket = quotas.requestsPerSecond === null ? undefined : new RateBucket(quotas.requestsPerSecond, Math.max(1, quotas.burst), clock);
  }

  /** Takes one request from the partner's rate, or throws its 429. */
  takeRequest(): void {
    const wait = this.bucket?.take();
    if (wait === undefined) return;
    this.note('requests');
    throw tooMany(
      `partner '${this.partner}' sent more than ${this.quotas.requestsPerSecond} requests a second (bursts of ${this.quotas.burst} allowed), ${SET_IN}; send it again after ${wait} s`,
      wait,
    );
  }

  /** Counts an event stream that opens now, given how many are open; throws the 429 past the quota. */
  checkEventStream(open: number): void {
    if (open < this.quotas.eventStreams) return;
    this.note('eventStreams');
    throw tooMany(`partner '${this.partner}' has ${open} event streams open, the most it may have (eventStreams: ${this.quotas.eventStreams}), ${SET_IN}; close one first`, 5);
  }

  /** Starts a HAR export: the function that ends it, or the 429 when too many are under way. */
  startHarExport(): () => void {
    if (this.exports >= this.quotas.harExports) {
      this.note('harExports');
      throw tooMany(`partner '${this.partner}' has ${this.exports} HAR export under way, the most at once (harExports: ${this.quotas.harExports}), ${SET_IN}; send it again once it is done`, 5);
    }
    const perHour = this.quotas.harExportsPerHour;
    if (perHour !== null) {
      const now = this.clock();
      while (this.exportTimes.length > 0 && this.exportTimes[0]! <= now - HOUR_MS) this.exportTimes.shift();
      if (this.exportTimes.length >= perHour) {
        this.note('harExports');
        const waitS = Math.max(1, Math.ceil((this.exportTimes[0]! + HOUR_MS - now) / 1000));
        throw tooMany(`partner '${this.partner}' started ${this.exportTimes.length} HAR exports in the last hour, the most it may (harExportsPerHour: ${perHour}), ${SET_IN}; the next may start in ${waitS} s`, waitS);
      }
    }
    if (this.allExports && !this.allExports.take()) {
      this.note('harExports');
      throw tooMany(`this sandbox is exporting ${this.allExports.limit} journals for its partners already, the most at once, ${SET_IN}; send it again in a few seconds`, 5);
    }
    this.exports++;
    if (perHour !== null) this.exportTimes.push(this.clock());
    return once(() => {
      this.exports--;
      this.allExports?.give();
    });
  }

  /** Holds a request for a fault rule (hang, delay): the function that lets it go, or the 429 when too many are held. */
  holdRequest(kind: string): () => void {
    if (this.held >= this.quotas.heldRequests) {
      this.note('heldRequests');
      throw tooMany(`partner '${this.partner}' has ${this.held} requests held by fault rules (hang, delay), the most at once (heldRequests: ${this.quotas.heldRequests}), ${SET_IN}; this ${kind} fault did not hold the request`, 1);
    }
    this.held++;
    return once(() => this.held--);
  }

  /** Counts an order's delivery to the POS until the function it answers is called, or throws the 429 when as many are under way as the quota lets. */
  startDelivery(): () => void {
    if (this.delivering >= this.quotas.deliveriesInFlight) {
      this.note('deliveries');
      throw tooMany(`partner '${this.partner}' has ${this.delivering} orders being delivered to the POS, the most at once (deliveriesInFlight: ${this.quotas.deliveriesInFlight}), ${SET_IN}; nothing was created or sent: send it again once one ends (each try ends within the delivery timeout)`, 1);
    }
    if (this.allDeliveries && !this.allDeliveries.take()) {
      this.note('deliveries');
      throw tooMany(`this sandbox is delivering ${this.allDeliveries.limit} orders to its partners' POS systems already, the most at once (deliveriesInAll), ${SET_IN}; nothing was created or sent: send it again once one ends`, 1);
    }
    this.delivering++;
    return once(() => {
      this.delivering--;
      this.allDeliveries?.give();
    });
  }

  /** Notes a checklist run refused by its quota, and gives its 429. */
  refuseChecklistRun(message: string, retryAfterS: number): ApiError {
    this.note('checklistRuns');
    return tooMany(`${message}, ${SET_IN}`, retryAfterS);
  }

  private note(quota: keyof QuotaBook['refused']): void {
    this.refused[quota]++;
    this.onRefused?.(quota);
  }

  /** What the health answer shows: the quotas, what of the bounded ones is in use now, and how often each refused. */
  view(): { quotas: Quotas; inUse: { deliveries: number; heldRequests: number }; refused: QuotaBook['refused'] } {
    return { quotas: this.quotas, inUse: { deliveries: this.delivering, heldRequests: this.held }, refused: { ...this.refused } };
  }
}

/** `release`, run the first time the answer is called and never again: a slot is given back once, however often its holder ends. */
function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

function tooMany(message: string, retryAfterS: number): ApiError {
  return new ApiError('TOO_MANY_REQUESTS', message, { headers: { 'retry-after': String(retryAfterS) } });
}

/** A partner's request rate, the first stage, so a refused request costs nothing and is not journaled; the dashboard's files and readiness pass. */

export function requestQuota(book: QuotaBook, routes: ReadonlyArray<Route<never>>): RequestHandler {
  const free = routeFinder(routes.filter((route) => route.api === 'page' || (route.api === 'control' && route.hosted === 'any')));
  return (req, res, next) => {
    if (book.quotas.requestsPerSecond === null || free(req.method, req.path) !== undefined) return next();
    res.locals.family = envelopeFamilyFor(req.path);
    book.takeRequest();
    next();
  };
}
