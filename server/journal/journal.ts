/** The last `limit` entries, newest last, with the control API's filters; an entry is redacted when first read, its summary as it comes in, and both again when read after a new signature was learnt. */
import { EventEmitter } from 'node:events';
import type { JournalEntry } from './journal-entry.js';
import { journalSummary, scrubSummary, type JournalSummary } from './journal-entry.js';
import { Redactor } from './redactor.js';

/** One kept request: its redacted summary, and either the rendered (redacted) entry or what builds it. */
interface Kept {
  summary: JournalSummary;
  entry?: JournalEntry;
  build?: () => JournalEntry;
  /** About how much memory its bodies and headers take (journalBytes, hosted/quotas.ts). */
  bytes: number;
  /** The redactor's count of signatures when the summary (and the entry, once rendered) was last redacted. */
  redactedAt: number;
}

/** An entry this small is searched again whole after a new signature is learnt; a larger one only when a piece of it may be there. */
const SEARCHED_AGAIN_WHOLE = 4096;

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
  /** true: entries with at least one finding; false: entries with none. */
  findings?: boolean;
  /** Entries at or after this time (ms since the epoch). */
  since?: number;
  /** Entries newer than this journal id: what happened since an entry the caller has seen. */
  after?: string;
  /** The page cursor: entries that ended before this one. */
  before?: string;
  limit?: number;
}

export class Journal extends EventEmitter<{ added: [JournalSummary] }> {
  private entries: Kept[] = [];
  private readonly byId = new Map<string, Kept>();
  /** Entries captured but not yet rendered, oldest first. */
  private readonly pending = new Set<Kept>();
  private sequence = 0;
  private readonly scrub = (text: string): string => this.redactor.text(text);
  private readonly scrubRecurring = (text: string): string => this.redactor.recurringText(text);
  /** The bytes of the entries kept (those of `entries` beyond `limit` included, until the next batch drop). */
  private bytes = 0;

  /** Nothing leaves unredacted; the oldest go once `limit` entries or `byteLimit` bytes are kept. */
  constructor(
    readonly limit = 5000,
    readonly redactor = new Redactor(''),
    readonly byteLimit = Number.POSITIVE_INFINITY,
  ) {
    super();
    // A signature about to be forgotten may sit in an entry not rendered yet: render them all while it is known.
    redactor.beforeForgetting(() => this.renderPending());
  }

  /** The id the next entry will get; handed out when a request starts, so the response can name it. */
  nextId(): string {
    this.sequence += 1;
    return `j-${String(this.sequence).padStart(6, '0')}`;
  }

  /** Entries a store kept, taken back oldest first before any new one, so ids stay in order across a move. */
  restore(entries: readonly JournalEntry[]): void {
    for (const entry of entries.slice(-this.limit)) {
      if (this.byId.has(entry.id)) continue;
      const kept: Kept = { summary: journalSummary(entry), entry, bytes: entryBytes(entry), redactedAt: -1 };
      this.entries.push(kept);
      this.bytes += kept.bytes;
      this.byId.set(entry.id, kept);
      this.sequence = Math.max(this.sequence, journalSequence(entry.id));
    }
  }

  add(raw: JournalEntry): void {
    this.addCaptured(journalSummary(raw), () => raw, entryBytes(raw));
  }

  /** `summary` is of what `build` will return, not yet redacted; `build` must not depend on anything that changes later. */
  addCaptured(summary: JournalSummary, build: () => JournalEntry, bytes = 0): void {
    const kept: Kept = { summary: scrubSummary(summary, this.scrub, this.scrubRecurring), build, bytes, redactedAt: this.redactor.learnt };
    this.entries.push(kept);
    this.bytes += bytes;
    this.byId.set(summary.id, kept);
    this.pending.add(kept);
    this.emit('added', kept.summary);
    // Dropping in batches keeps add() O(1) amortized instead of shifting the array every time.
    if (this.entries.length > this.limit * 1.1 || this.bytes > this.byteLimit) {
      let drop = Math.max(0, this.entries.length - this.limit);
      let left = this.bytes;
      for (let i = 0; i < drop; i++) left -= this.entries[i]!.bytes;
      // Past the bytes, a tenth of the limit more goes at once, for the same reason.
      while (left > this.byteLimit * 0.9 && drop < this.entries.length - 1) left -= this.entries[drop++]!.bytes;
      for (const old of this.entries.splice(0, drop)) {
        this.bytes -= old.bytes;
        this.byId.delete(old.summary.id);
        this.pending.delete(old);
      }
    }
  }

  get(id: string): JournalEntry | undefined {
    const kept = this.byId.get(id);
    return kept && this.render(kept);
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.select(filter).map((kept) => this.render(kept));
  }

  private select(filter: JournalFilter): Kept[] {
    const status = filter.status;
    // Filters read the redacted summary: a filter cannot find text the journal does not show.
    // A signature learnt since a summary was redacted may be in its text: the text filters read it redacted again.
    const byText = filter.path !== undefined || filter.location !== undefined || filter.orderId !== undefined || filter.fault !== undefined;
    const matches = (kept: Kept): boolean => {
      const entry = byText ? this.current(kept).summary : kept.summary;
      return (
        (filter.path === undefined || entry.path.includes(filter.path)) &&
        (status === undefined || (/^\dxx$/i.test(status) ? String(entry.status)[0] === status[0] : String(entry.status) === status)) &&
        (filter.location === undefined || entry.locationId === filter.location) &&
        (filter.direction === undefined || entry.direction === filter.direction) &&
        (filter.orderId === undefined || entry.orderId === filter.orderId) &&
        (filter.fault === undefined || faultFits(filter.fault, entry)) &&
        (filter.findings === undefined || entry.findings.length > 0 === filter.findings) &&
        (filter.since === undefined || Date.parse(entry.time) >= filter.since)
      );
    };
    const found: Kept[] = [];
    const first = Math.max(0, this.entries.length - this.limit);
    // Not a reason to stop the walk: an id is handed out when a request starts, so a slow one lands after newer ids.
    const after = filter.after === undefined ? -1 : journalSequence(filter.after);
    const cursor = filter.before === undefined ? undefined : this.byId.get(filter.before);
    const start = filter.before === undefined ? this.entries.length - 1 : cursor === undefined ? -1 : this.entries.lastIndexOf(cursor) - 1;
    for (let i = start; i >= first && found.length < (filter.limit ?? Infinity); i--) {
      if (journalSequence(this.entries[i]!.summary.id) > after && matches(this.entries[i]!)) found.push(this.current(this.entries[i]!));
    }
    return found;
  }

  get size(): number {
    return Math.min(this.entries.length, this.limit);
  }

  /** About how much memory the kept entries' bodies and headers take. */
  get sizeBytes(): number {
    return this.bytes;
  }

  /** At most `limit` entries and `maxBytes` of bodies and headers (one entry at least), since a page is serialized in one turn of the event loop. */
  page(filter: JournalFilter, limit: number, maxBytes: number): { items: JournalEntry[]; next?: string } {
    const found = this.select({ ...filter, limit: limit + 1 });
    const items: JournalEntry[] = [];
    let bytes = 0;
    while (items.length < Math.min(limit, found.length) && (items.length === 0 || bytes + found[items.length]!.bytes <= maxBytes)) {
      const kept = found[items.length]!;
      bytes += kept.bytes;
      items.push(this.render(kept));
    }
    return found.length > items.length ? { items, next: items.at(-1)!.id } : { items };
  }

  /** The ids of the entries `list` would give, newest first, without rendering any: for an export that renders as it writes. */
  ids(filter: JournalFilter = {}): string[] {
    return this.select(filter).map((kept) => kept.summary.id);
  }

  clear(): void {
    this.bytes = 0;
    this.entries = [];
    this.byId.clear();
    this.pending.clear();
  }

  /** `kept` with its summary, and its entry if rendered, redacted again if a signature was learnt since. */
  private current(kept: Kept): Kept {
    if (kept.redactedAt === this.redactor.learnt) return kept;
    const since = kept.redactedAt;
    kept.redactedAt = this.redactor.learnt;
    kept.summary = scrubSummary(kept.summary, this.scrub, this.scrubRecurring);
    // A large entry is searched again only if a piece of a new signature is in it: a body full of heads takes far longer to redact than to look through.
    const entry = kept.build === undefined ? kept.entry : undefined;
    if (entry !== undefined && (kept.bytes <= SEARCHED_AGAIN_WHOLE || this.redactor.couldHoldLearnt(JSON.stringify(entry), since))) kept.entry = this.redactor.entry(entry);
    return kept;
  }

  /** The entry redacted, rendered once: a build that throws leaves a bare entry saying so. */
  private render(kept: Kept): JournalEntry {
    this.current(kept);
    if (kept.entry === undefined) {
      let raw: JournalEntry;
      try {
        raw = kept.build!();
      } catch (error) {
        raw = bareEntry(kept.summary, error);
      }
      kept.entry = this.redactor.entry(raw);
      kept.build = undefined;
      this.pending.delete(kept);
    }
    return kept.entry;
  }

  private renderPending(): void {
    for (const kept of this.pending) this.render(kept);
  }
}

function bareEntry(summary: JournalSummary, error: unknown): JournalEntry {
  return {
    id: summary.id,
    requestId: summary.requestId,
    time: summary.time,
    direction: summary.direction,
    method: summary.method,
    path: summary.path,
    query: {},
    request: { headers: {}, bodyBytes: 0 },
    response: { status: summary.status, headers: {}, error: `the journal could not keep this request's details: ${(error as Error)?.message ?? 'unknown error'}` },
    latencyMs: 0,
    findings: [],
  };
}

/** About the memory a whole entry holds: its JSON's length, plus what any object costs. */
function entryBytes(entry: JournalEntry): number {
  try {
    return JSON.stringify(entry).length + 512;
  } catch {
    return 512;
  }
}

/** j-000042 → 42: ids compare as numbers, so j-1000000 comes after j-999999. */
export const journalSequence = (id: string): number => Number(id.slice(2));

function faultFits(wanted: string, entry: JournalSummary): boolean {
  if (wanted === 'true') return entry.fault !== undefined;
  if (wanted === 'false') return entry.fault === undefined;
  return entry.fault === wanted;
}
