/**
 * One partner's quotas (domain/quotas.ts) as the sandbox keeps them: the request bucket, the exports under way (the
 * partner's own, and the process's across every partner), and how often each limit refused something, which the
 * health answer shows. The refusals are 429 `TOO_MANY_REQUESTS` with `Retry-After`, in the envelope of the path.
 */
import { ApiError } from '../errors.js';
import { RateBucket } from './rate-bucket.js';
import type { Quotas } from './quotas.js';

/** A count of things under way at once, shared by every partner of a process (the HAR exports of all). */
export class SharedSlots {
  private used = 0;

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
  /** When each export of the last hour started (harExportsPerHour). */
  private readonly exportTimes: number[] = [];
  readonly refused = { requests: 0, eventStreams: 0, harExports: 0, checklistRuns: 0, heldRequests: 0 };
  /** Told of each refusal as it happens: an instance's metrics count them (server/metrics/). */
  onRefused: ((quota: keyof QuotaBook['refused']) => void) | undefined;

  constructor(
    readonly quotas: Quotas,
    readonly partner: string,
    private readonly clock: () => number,
    private readonly allExports?: SharedSlots,
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
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.exports--;
      this.allExports?.give();
    };
  }

  /** Holds a request for a fault rule (hang, delay): the function that lets it go, or the 429 when too many are held. */
  holdRequest(kind: string): () => void {
    if (this.held >= this.quotas.heldRequests) {
      this.note('heldRequests');
      throw tooMany(`partner '${this.partner}' has ${this.held} requests held by fault rules (hang, delay), the most at once (heldRequests: ${this.quotas.heldRequests}), ${SET_IN}; this ${kind} fault did not hold the request`, 1);
    }
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
    };
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

  /** What the health answer shows: the quotas, and how often each refused. */
  view(): { quotas: Quotas; refused: QuotaBook['refused'] } {
    return { quotas: this.quotas, refused: { ...this.refused } };
  }
}

function tooMany(message: string, retryAfterS: number): ApiError {
  return new ApiError('TOO_MANY_REQUESTS', message, { headers: { 'retry-after': String(retryAfterS) } });
}
