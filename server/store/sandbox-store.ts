/**
 * The sandbox's durable state: a small lowdb document for bounded state (menus, fault rules),
 * segmented lowdb collections for orders (made by people and the checklist, a few hundred), and a record log with a
 * retention for refunds, which grow with every request (docs/state-file.md).
 */
import { Low } from 'lowdb';
import type { Menu } from '../fixtures/fixture-schemas.js';
import type { Fixtures } from '../fixtures/load-fixtures.js';
import type { RefundRecord, RefundView } from '../refunds/refund-rules.js';
import type { OrderRecord } from '../orders/order-rules.js';
import type { ActiveFaultRule } from '../faults/fault-registry.js';
import { GroupCommit } from './group-commit.js';
import { SegmentedCollection } from './segmented-collection.js';
import type { DocumentStorage } from './segment-storage.js';
import { storedStateProblems } from './check-stored-state.js';
import { storedStateNotes } from './stored-state-notes.js';
import { logsOf, segmentsOf } from './stored-documents.js';
import { RecordLog } from './record-log.js';
import type { KeptRecord } from './kept-record.js';
import { isoTimeMs } from '../http/iso-time.js';
import { DEFAULT_REFUND_LIMIT } from './retention.js';
import { damagedStateError, otherPartnerError } from './store-error.js';

interface StateDocument {
  schemaVersion: 1;
  seededAt: string;
  menus: Record<string, Menu>;
  /** The fault rules in force, with their counters; absent in files written before faults were stored. */
  faults?: ActiveFaultRule[];
  /** The partner whose state this is (its POS name); absent in files written before it was stored. */
  partner?: string;
}

/**
 * A refund's place in the store, its acceptance time in ms: oldest first is the order refunds are kept in (the
 * retention drops from the front, the control API lists from the back). A start places 100,000 refunds: read from
 * the time's digits (iso-time.ts), not by Date.parse (60 ms).
 */
export function acceptedAtMs(refund: RefundView): number {
  return isoTimeMs(refund.acceptedAt);
}

export class SandboxStore {
  readonly orders: SegmentedCollection<OrderRecord>;
  readonly refunds: RecordLog<RefundRecord, RefundView>;
  private readonly state: Low<StateDocument>;
  private readonly committer: GroupCommit;
  private stateDirty = false;
  /** What the start says of stored files it used though part of them is gone (stored-state-notes.ts); none, mostly. */
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

  /**
   * Opens the store; an empty one is seeded from the fixtures. Every stored file is checked first, and any problem
   * throws a StoreError before anything is loaded or written: a start never drops what an earlier run stored.
   */
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
    // A file of an earlier version names no partner: it is this one's from now on, written with the next change (a
    // start writes nothing).
    if (store.state.data.partner === undefined && options.partner !== undefined) {
      store.state.data.partner = options.partner;
      store.stateDirty = true;
    }
    // A location of the fixtures with no stored menu (the fixtures gained one since, or the file was edited)
    // gets the fixtures' menu: adding it drops nothing, and without it every menu call there would fail.
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
