/** The request journal: the last `limit` entries in memory, newest last, with the filters of the control API; emits `added`. */
import { EventEmitter } from 'node:events';
import type { JournalEntry } from './journal-entry.js';
import { Redactor } from './redactor.js';

export interface JournalFilter {
  /** Entries whose path contains this text (`/order/refund` matches every mount). */
  path?: string;
  /** An exact status (`401`) or a class (`4xx`). */
  status?: string;
  location?: string;
  direction?: 'inbound' | 'outbound';
  /** Entries about this order (outbound deliveries and status calls). */
  orderId?: string;
  /** 'true': entries a fault acted on; 'false': the others; else the id of the rule (or x-sandbox-fault). */
  fault?: string;
  /** Entries at or after this time (ms since the epoch). */
  since?: number;
  /** Entries newer than this journal id: what happened since an entry the caller has seen. */
  after?: string;
  /**
   * The page cursor: entries listed after this one (they ended before it). An entry no longer kept leaves nothing
   * to list: everything that ended before it was dropped first.
   */
  before?: string;
  limit?: number;
}

export class Journal extends EventEmitter<{ added: [JournalEntry] }> {
  private entries: JournalEntry[] = [];
  private readonly byId = new Map<string, JournalEntry>();
  private sequence = 0;

  /** Every entry passes through `redactor` on its way in: nothing stored, listed or emitted holds a secret. */
  constructor(
    readonly limit = 5000,
    readonly redactor = new Redactor(''),
  ) {
    super();
  }

  /** The id the next entry will get; handed out when a request starts, so the response can name it. */
  nextId(): string {
    this.sequence += 1;
    return `j-${String(this.sequence).padStart(6, '0')}`;
  }

  add(raw: JournalEntry): void {
    const entry = this.redactor.value(raw);
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.emit('added', entry);
    // Dropping in batches keeps add() O(1) amortized instead of shifting the array every time.
    if (this.entries.length > this.limit * 1.1) {
      for (const old of this.entries.splice(0, this.entries.length - this.limit)) this.byId.delete(old.id);
    }
  }

  get(id: string): JournalEntry | undefined {
    return this.byId.get(id);
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const status = filter.status;
    const matches = (entry: JournalEntry): boolean =>
      (filter.path === undefined || entry.path.includes(filter.path)) &&
      (status === undefined || (/^\dxx$/i.test(status) ? String(entry.response.status)[0] === status[0] : String(entry.response.status) === status)) &&
      (filter.location === undefined || entry.locationId === filter.location) &&
      (filter.direction === undefined || entry.direction === filter.direction) &&
      (filter.orderId === undefined || entry.orderId === filter.orderId) &&
      (filter.fault === undefined || faultFits(filter.fault, entry)) &&
      (filter.since === undefined || Date.parse(entry.time) >= filter.since);
    const found: JournalEntry[] = [];
    const first = Math.max(0, this.entries.length - this.limit);
    // Not a reason to stop the walk: an id is handed out when a request starts, so a slow one lands after newer ids.
    const after = filter.after === undefined ? -1 : journalSequence(filter.after);
    const cursor = filter.before === undefined ? undefined : this.byId.get(filter.before);
    const start = filter.before === undefined ? this.entries.length - 1 : cursor === undefined ? -1 : this.entries.lastIndexOf(cursor) - 1;
    for (let i = start; i >= first && found.length < (filter.limit ?? Infinity); i--) {
      if (journalSequence(this.entries[i]!.id) > after && matches(this.entries[i]!)) found.push(this.entries[i]!);
    }
    return found;
  }

  get size(): number {
    return Math.min(this.entries.length, this.limit);
  }

  clear(): void {
    this.entries = [];
    this.byId.clear();
  }
}

/** j-000042 → 42: ids compare as numbers, so j-1000000 comes after j-999999. */
export const journalSequence = (id: string): number => Number(id.slice(2));

function faultFits(wanted: string, entry: JournalEntry): boolean {
  if (wanted === 'true') return entry.fault !== undefined;
  if (wanted === 'false') return entry.fault === undefined;
  return entry.fault?.rule === wanted;
}
