/** The runner's client of the sandbox's control API (/_sandbox): orders, faults, journal, records. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import { journalSequence } from '../server/journal/journal.js';
import { nextPageLink } from '../server/control/control-query.js';
import type { OrderRecord } from '../server/orders/order-rules.js';
import type { RefundRecord } from '../server/refunds/refund-rules.js';
import type { FaultRule } from '../server/faults/fault-rule-types.js';
import type { Location, Menu } from '../server/fixtures/fixture-schemas.js';

export interface SandboxHealth {
  version: string;
  partner: string;
  delivery?: { attempts: number; attemptTimeoutMs: number; retryDelaysMs: number[]; posOrderUrl?: string | null };
}

/** A control call the sandbox refused or could not be reached for; the runner reports it as the item's `error`. */
export class ControlError extends Error {
  /** The sandbox answered (with an error): it runs, and the advice to start one would be wrong. */
  readonly answered: boolean;

  constructor(message: string, options: { answered?: boolean } = {}) {
    super(message);
    this.answered = options.answered ?? false;
  }
}

const FINAL_ORDER_STATES = ['ACCEPTED', 'REJECTED', 'DELIVERY_FAILED', 'REFUNDED'];

/** A run is slowed by its partner's other traffic on a hosted sandbox's quota, and fails only when no call gets through for this long. */
export const QUOTA_WAIT_MS = 60_000;

/** How often a wait reads the sandbox again, unless told otherwise. */
export const DEFAULT_POLL_MS = 100;

export class SandboxControl {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
    private readonly pollMs = DEFAULT_POLL_MS,
    private readonly adminToken?: string,
    private readonly quotaWaitMs = QUOTA_WAIT_MS,
  ) {}

  health = () => this.call<SandboxHealth>('GET', '/_sandbox/health');
  /** The names of `texts` that hold the partner's key or a token, as the sandbox's redaction finds them. */
  secretsIn = async (texts: Record<string, string>): Promise<string[]> => (await this.call<{ holding: string[] }>('POST', '/_sandbox/secrets/check', { texts })).holding;
  locations = () => this.call<Array<Location & { menuItems: number }>>('GET', '/_sandbox/locations');
  menu = (locationId: string) => this.call<Menu>('GET', `/_sandbox/locations/${encodeURIComponent(locationId)}/menu`);
  order = (orderId: string) => this.call<OrderRecord>('GET', `/_sandbox/orders/${encodeURIComponent(orderId)}`);
  /** Every order and every refund: the lists come a page at a time. */
  orders = () => this.allPages<OrderRecord>('/_sandbox/orders?limit=5000');
  refunds = () => this.allPages<RefundRecord>('/_sandbox/refunds?limit=5000');

  /** Creates an order from a template and answers once its delivery has settled (?wait=true). */
  createOrder = (body: { template: string; locationId: string; orderId: string; posOrderUrl?: string }) =>
    this.call<OrderRecord>('POST', '/_sandbox/orders?wait=true', body);

  resend = (orderId: string) => this.call<OrderRecord>('POST', `/_sandbox/orders/${encodeURIComponent(orderId)}/resend?wait=true`);

  addFault = async (rule: FaultRule): Promise<string> => (await this.call<Array<{ id: string }>>('POST', '/_sandbox/faults', [rule]))[0]!.id;
  deleteFault = (id: string) => this.call<unknown>('DELETE', `/_sandbox/faults/${encodeURIComponent(id)}`);

  /** The id of the newest journal entry: entries after it are what a step caused (ids grow: j-000001, j-000002 …). */
  async journalMark(): Promise<string> {
    const [newest] = await this.call<JournalEntry[]>('GET', '/_sandbox/journal?limit=1');
    return newest?.id ?? 'j-000000';
  }

  /** Every journal entry after `mark`, in id order (all of the journal for the mark 'j-000000'). */
  async journalSince(mark: string): Promise<JournalEntry[]> {
    const entries = await this.allPages<JournalEntry>(`/_sandbox/journal?after=${encodeURIComponent(mark)}&limit=1000`);
    // The journal lists entries as they ended; in id order, calls are in the order they were made.
    return entries.sort((a, b) => journalSequence(a.id) - journalSequence(b.id));
  }

  /** Polls the order until it is in a final state or `timeoutMs` passed; `tick` is told the seconds left. */
  async settledOrder(orderId: string, timeoutMs: number, tick?: (secondsLeft: number) => void): Promise<OrderRecord> {
    return this.poll(() => this.order(orderId), (order) => FINAL_ORDER_STATES.includes(order.Status), timeoutMs, tick);
  }

  /** Calls `read` until `done` holds or the time is up; the last value either way. */
  async poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, tick?: (secondsLeft: number) => void, intervalMs = this.pollMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastTick = -1;
    for (;;) {
      const value = await read();
      const left = deadline - Date.now();
      if (done(value) || left <= 0) return value;
      const seconds = Math.ceil(left / 1000);
      if (tick && seconds !== lastTick) tick((lastTick = seconds));
      await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
    }
  }

  /** GETs `path` and each page its Link rel="next" names, until the last. */
  private async allPages<T>(path: string): Promise<T[]> {
    const all: T[] = [];
    for (let next: string | undefined = path; next !== undefined; ) {
      const page: { value: T[]; link: string | null } = await this.send<T[]>('GET', next);
      all.push(...page.value);
      next = nextPageLink(page.link);
    }
    return all;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.send<T>(method, path, body)).value;
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<{ value: T; link: string | null }> {
    let response: Response;
    const waitUntil = Date.now() + this.quotaWaitMs;
    for (;;) {
      try {
        response = await fetch(new URL(path, this.baseUrl), {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(this.adminToken === undefined ? {} : { authorization: `Bearer ${this.adminToken}` }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        throw new ControlError(`the sandbox at ${this.baseUrl} did not answer ${method} ${path}: ${causeOf(error)}`);
      }
      // A hosted sandbox's request quota: the run waits as told, a few times, rather than fail an item for it.
      const wait = Number(response.headers.get('retry-after'));
      if (response.status !== 429 || !(wait >= 0 && wait <= 10)) break;
      if (Date.now() + Math.max(wait, 0.1) * 1000 > waitUntil) {
        throw new ControlError(
          `the sandbox at ${this.baseUrl} answered ${method} ${path} with 429 for ${this.quotaWaitMs / 1000} s: the partner's request rate is used up, and every client of the partner draws on it, this run too (slow the others down, or ask the operator for a higher rate): ${(await response.text()).slice(0, 500)}`,
          { answered: true },
        );
      }
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 0.1) * 1000));
    }
    const text = await response.text();
    if (!response.ok) throw new ControlError(`the sandbox at ${this.baseUrl} answered ${method} ${path} with ${response.status}: ${text.slice(0, 500)}`, { answered: true });
    return { value: (text === '' ? undefined : JSON.parse(text)) as T, link: response.headers.get('link') };
  }
}

/** The useful part of a fetch failure: `ECONNREFUSED 127.0.0.1:4100` rather than "fetch failed". */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  // fetch refuses some ports outright (1, 6000 …): its cause says "bad port".
  if (cause?.message) return `${(error as Error).message}: ${cause.message}`;
  return (error as Error).message;
}
