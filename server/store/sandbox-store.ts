/** The sandbox's durable state: a lowdb document for bounded state, segments for orders, a record log with a retention for refunds (docs/state-file.md). */
import { Low } from 'lowdb';
import type { Menu } from '../fixtures/fixture-schemas.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import type { RefundRecord, RefundView } from '../refunds/refund-rules.js';
import type { OrderRecord } from '../orders/order-rules.js';
import type { ActiveFaultRule } from '../faults/fault-registry.js';
import { GroupCommit } from './group-commit.js';
import { SegmentedCollection } from './segmented-collection.js';
import type { DocumentStorage } from './segment-storage.js';
import { storedStateProblems, storedStateNotes } from './check-stored-state.js';
import { logsOf, segmentsOf } from './read-stored-files.js';
import { RecordLog } from './record-log.js';
import type { KeptRecord } from './log-file-tally.js';
import { isoTimeMs } from '../http/iso-time.js';
import { DEFAULT_REFUND_LIMIT } from './retention.js';
import { StartupError } from '../errors.js';

interface StateDocument {
  schemaVersion: 1;
  seededAt: string;
  menus: Record<string, Menu>;
  /** The fault rules in force, with their counters; absent in files written before faults were stored. */
  faults?: ActiveFaultRule[];
  /** The partner whose state this is (its POS name); absent in files written before it was stored. */
  partner?: string;
}

/** Oldest first is the order refunds are kept in, read from the time's digits, not by Date.parse. */
export function acceptedAtMs(refund: RefundView): number {
  return isoTimeMs(refund.acceptedAt);
}

export class SandboxStore {
  readonly orders: SegmentedCollection<OrderRecord>;
  readonly refunds: RecordLog<RefundRecord, RefundView>;
  private readonly state: Low<StateDocument>;
  private readonly committer: GroupCommit;
  private stateDirty = false;
  /** What the start says of stored files it used though part of them is gone (check-stored-state.ts); none, mostly. */
  notes: string[] = [];

  private constructor(
    readonly storage: DocumentStorage,
    private readonly fixtures: Fixtures,
    private readonly clock: () => number,
    refundLimit: number,
    /** Whose state this is: written into a new state document, and compared with the stored one at start. */
    private readonly partner?: string,
  ) {
    this.state = new Low<StateDocument>(storage.open<StateDocument>('state'), this.seedDocument());
    this.orders = new SegmentedCollection<OrderRecord>(storage, 'orders', (order) => order.OrderId, {
      secondaryKeyOf: (order) => order.ExternalId,
    });
    this.refunds = new RecordLog<RefundRecord, RefundView>(storage, 'refunds', (refund) => refund.id, {
      limit: refundLimit,
      droppable: (refund) => refund.status !== 'PENDING',
      changesAgain: (refund) => refund.status === 'PENDING',
      placeOf: acceptedAtMs,
    });
    this.committer = new GroupCommit(() => this.flush());
  }

  /** Every stored file checked first; any problem throws a StoreError before anything is loaded or written, so a start never drops what was stored. */
  static async open(storage: DocumentStorage, fixtures: Fixtures, clock: () => number, options: { refundLimit?: number; partner?: string } = {}): Promise<SandboxStore> {
    const stored = await storage.readAll();
    const problems = storedStateProblems(stored);
    if (problems.length > 0) throw damagedStateError(problems, stored);
    // Another partner's state would answer this partner's calls with its orders and menus, silently.
    const owner = (stored.state as { value?: StateDocument } | undefined)?.value?.partner;
    if (owner !== undefined && options.partner !== undefined && owner !== options.partner) throw otherPartnerError(owner, options.partner, stored);
    const store = new SandboxStore(storage, fixtures, clock, options.refundLimit ?? DEFAULT_REFUND_LIMIT, options.partner);
    store.notes = storedStateNotes(stored);
    if (stored.state === undefined) {
      await store.reset();
      return store;
    }
    // The check has held every file to its schema, so the values are what these types say.
    store.state.data = (stored.state as { value: StateDocument }).value;
    // A file of an earlier version names no partner: it is this one's from now on.
    if (store.state.data.partner === undefined && options.partner !== undefined) {
      store.state.data.partner = options.partner;
      store.stateDirty = true;
    }
    // A location with no stored menu gets the fixtures' menu, which drops nothing.
    for (const [locationId, menu] of Object.entries(fixtures.menus)) {
      if (!Object.hasOwn(store.state.data.menus, locationId)) {
        Object.defineProperty(store.state.data.menus, locationId, { value: structuredClone(menu), enumerable: true, writable: true, configurable: true });
        store.stateDirty = true;
      }
    }
    store.orders.load(segmentsOf<OrderRecord>(stored, 'orders'));
    store.refunds.load(segmentsOf<RefundRecord>(stored, 'refunds'), logsOf<RefundRecord | KeptRecord<RefundView>>(stored, 'refunds'));
    return store;
  }

  /** Own properties only: an id such as `__proto__` or `toString` is no location. */
  menu(locationId: string): Menu | undefined {
    return Object.hasOwn(this.state.data.menus, locationId) ? this.state.data.menus[locationId] : undefined;
  }

  /** Replaces a location's menu; the next commit writes it. */
  putMenu(locationId: string, menu: Menu): void {
    this.state.data.menus[locationId] = menu;
    this.stateDirty = true;
  }

  /** The fault rules stored by the last run (or this one). */
  faultRules(): ActiveFaultRule[] {
    return this.state.data.faults ?? [];
  }

  /** Replaces the stored fault rules; the next commit writes them. */
  putFaultRules(rules: ActiveFaultRule[]): void {
    this.state.data.faults = rules;
    this.stateDirty = true;
  }

  /** Marks the state document changed; the next commit writes it. */
  touchState(): void {
    this.stateDirty = true;
  }

  /** Resolves once every change made before the call is on disk; concurrent callers share one write. */
  commit(): Promise<void> {
    return this.committer.commit();
  }

  /** Back to the fixtures: menus and orders as shipped, no refunds, no fault rules (the fault book puts back those of the start). */
  async reset(): Promise<void> {
    await this.orders.clear();
    await this.refunds.clear();
    this.state.data = this.seedDocument();
    for (const order of this.fixtures.orders) this.orders.put(structuredClone(order));
    this.stateDirty = true;
    await this.commit();
  }

  private seedDocument(): StateDocument {
    return { schemaVersion: 1, seededAt: new Date(this.clock()).toISOString(), menus: structuredClone(this.fixtures.menus), ...(this.partner === undefined ? {} : { partner: this.partner }) };
  }

  private async flush(): Promise<void> {
    const writes = [this.orders.flush(), this.refunds.flush()];
    if (this.stateDirty) {
      this.stateDirty = false;
      writes.push(this.state.write());
    }
    await Promise.all(writes);
  }
}

/** Is the store there? Asked by health (the operator's, a partner's, a follower's) and by readiness. */

/** How long a store may take to answer a health or readiness check before it counts as unavailable. */
export const STORE_PING_LIMIT_MS = 2000;

/** Pings the store, timed; a store that fails or takes longer than the limit is unavailable, and why. */
export async function pingStore(storage: Pick<DocumentStorage, 'kind' | 'ping'>): Promise<{ ok: true; ms: number } | { ok: false; ms: number; error: string }> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      storage.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STORE_PING_LIMIT_MS} ms`)), STORE_PING_LIMIT_MS);
      }),
    ]);
    return { ok: true, ms: ms() };
  } catch (error) {
    return { ok: false, ms: ms(), error: `the ${storage.kind} store did not answer: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The error of a stored state that cannot be used or moved aside; `serve` prints its message and exits with code 2. */

export class StoreError extends StartupError {
  override name = 'StoreError';
}

/** How many problems the message lists; a folder of broken segments would otherwise fill the terminal. */
const LISTED = 20;

/** The check refused the state: what is wrong, file by file, and the two ways on. */
export function damagedStateError(problems: string[], where: { dataFile: string; segmentsFolder: string }): StoreError {
  const listed = problems.slice(0, LISTED).map((problem) => `  - ${problem}`);
  if (problems.length > LISTED) listed.push(`  - … and ${problems.length - LISTED} more`);
  return new StoreError(
    [
      'the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
      ...listed,
      'To keep its records, repair or restore the files named above.',
      `To start afresh from the fixtures, start with --fresh-state: it moves ${where.dataFile} and ${where.segmentsFolder} aside (renamed with the time, nothing deleted). Or start with --memory.`,
    ].join('\n'),
  );
}

/** The stored state is another partner's: its orders and menus would answer this partner's calls. */
export function otherPartnerError(owner: string, partner: string, where: { dataFile: string; segmentsFolder: string }): StoreError {
  return new StoreError(
    [
      `${where.dataFile} holds the state of partner '${owner}' (its orders, refunds and menus), but this sandbox runs as partner '${partner}' (SANDBOX_PARTNER, or the fixtures' partner): its orders would answer the other partner's calls, so the sandbox did not start (nothing on disk was changed).`,
      `To start afresh for '${partner}', start with --fresh-state: it moves ${where.dataFile} and ${where.segmentsFolder} aside (renamed with the time, nothing deleted). Or give --data a file of its own, or start with --memory.`,
      `To go on with '${owner}', start with SANDBOX_PARTNER=${owner} (and its key).`,
    ].join('\n'),
  );
}
