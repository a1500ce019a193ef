/** A collection that grows with every request (refunds), kept as record logs: a change appends its record's line, a commit is one append, no file rewritten in it; past `limit` the oldest go (never one held), and files are removed or compacted by log-file-tally.ts's rules. */
import type { DocumentStorage } from './segment-storage.js';
import { logName } from './segment-names.js';
import { KeptRecord, LogFileTally, PlacesMet } from './log-file-tally.js';
import { RetentionWalk } from './retention.js';
import { latestLines } from './latest-lines.js';

/** How many lines a log file takes before the next one starts: a few MB, read in a blink at start. */
export const LOG_FILE_LINES = 10_000;

/** What the log holds of a record: its view (`T` once whole), its line as read at start, and where its latest line is. */
type Kept<T, S> = KeptRecord<T | S>;

export interface RecordLogOptions<S> {
  /** The most records kept; the oldest beyond it are dropped. */
  limit: number;
  /** False for a record that must not be dropped yet (a refund still to be processed). */
  droppable?: (record: S) => boolean;
  /** A record written again soon (a PENDING refund): a file holding its latest line is not rewritten until it moved on. */
  changesAgain?: (record: S) => boolean;
  /** A record's place in the order records are kept in, smallest (oldest) first: a refund's acceptance time (log-file-tally.ts). */
  placeOf?: (record: S) => number;
  linesPerFile?: number;
}

/** `T` is the record; `S`, its view, the fields that keys, order, retention and the callers' indexes read. */
export class RecordLog<T extends S, S = T> {
  /** Every kept record by key, oldest first (a Map keeps the order in which keys first came). */
  private readonly records = new Map<string, Kept<T, S>>();
  /** Each log file's lines: how many, how many are the latest of a kept record, and which file is due for what. */
  private readonly tally = new LogFileTally();
  /** Which records the retention drops past the limit, and where it stands. */
  private readonly retention = new RetentionWalk<Kept<T, S>>();
  private readonly changed = new Set<string>();
  /** Segment files of an earlier version, removed once their records are in a log. */
  private legacy: string[] = [];
  /** Files no longer needed whose removal failed (permissions, say): left until a reset, which removes them too. */
  private leftover: string[] = [];
  private current = 1;
  /** The flush under way, if any: flushes and clears run one after the other. */
  private writing: Promise<void> = Promise.resolve();
  /** The one file being rewritten, if any, and when that is over. */
  private compacting: { file: number; done: Promise<void> } | undefined;
  /** Called with each record dropped by the retention, so indexes built on the records can forget it. */
  onDrop: (record: S) => void = () => {};

  constructor(
    private readonly storage: DocumentStorage,
    private readonly prefix: string,
    private readonly keyOf: (record: S) => string,
    private readonly options: RecordLogOptions<S>,
  ) {}

  /** The records of an earlier version's segments, then the log files in order, later lines replacing earlier; appends go to a new file. */
  load(legacySegments: ReadonlyArray<{ name: string; records: T[] }>, logFiles: ReadonlyArray<{ number: number; records: ReadonlyArray<T | KeptRecord<S>> }>): void {
    const places = new PlacesMet(this.options.placeOf);
    for (const { name, records } of legacySegments) {
      this.legacy.push(name);
      for (const record of records) {
        this.records.set(this.keyOf(record), new KeptRecord<T | S>(record, undefined));
        this.changed.add(this.keyOf(record));
        places.met(record);
      }
    }
    const legacy = this.changed.size > 0;
    for (const { number, records } of logFiles) {
      // Every line of a file read is a record, in the file's order (decode-log-file.ts): the index is the row.
      for (let row = 0; row < records.length; row++) {
        const entry = records[row]!;
        // A line its reader recognized comes as the log's own entry (log-file-tally.ts); one read by JSON.parse, as a record.
        const kept = entry instanceof KeptRecord ? entry : new KeptRecord<T | S>(entry, undefined);
        kept.file = number;
        kept.row = row;
        const key = this.keyOf(kept.view as S);
        // One lookup a line: setting a key already there keeps its place in the order, and the size tells a new one.
        const size = this.records.size;
        this.records.set(key, kept);
        if (this.records.size > size) places.met(kept.view as S);
        else if (legacy) this.changed.delete(key);
      }
      this.tally.appended(number, records.length);
      this.current = Math.max(this.current, number + 1);
    }
    const changesAgain = this.options.changesAgain ?? (() => false);
    for (const kept of this.records.values()) {
      if (kept.file === 0) continue;
      kept.held = changesAgain(kept.view);
      this.tally.moved(0, false, kept.file, kept.held);
    }
    if (places.reorder(this.records)) this.retention.forget();
    this.dropPastLimit();
  }

  get(key: string): T | undefined {
    const kept = this.records.get(key);
    return kept && this.whole(kept);
  }

  /** Every kept record, oldest first, each parsed if it was not: for a page of records, `views` and `get` cost less. */
  all(): T[] {
    return Array.from(this.records.values(), (kept) => this.whole(kept));
  }

  /** Every kept record's view, oldest first, with nothing parsed: the record itself, or the fields read from its line. */
  views(): S[] {
    return Array.from(this.records.values(), (kept) => kept.view);
  }

  /** Not kept: a record read whole each time costs microseconds, and keeping it would double its memory. */
  private whole(kept: Kept<T, S>): T {
    return kept.line === undefined ? (kept.view as T) : (JSON.parse(kept.line) as T);
  }

  get size(): number {
    return this.records.size;
  }

  /** Adds a record, or replaces the one with the same key (which keeps its place in the order); the next flush writes it. */
  put(record: T): void {
    const key = this.keyOf(record);
    const kept = this.records.get(key);
    if (kept) {
      kept.view = record;
      kept.line = undefined;
    } else this.records.set(key, new KeptRecord<T | S>(record, undefined));
    this.changed.add(key);
    if (this.records.size > this.options.limit) this.dropPastLimit();
  }

  /** Appends every record changed since the last flush to the current log file, then removes the files no longer needed. */
  flush(): Promise<void> {
    const run = this.writing.then(() => this.write());
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (this.changed.size > 0) {
      const file = this.current;
      const keys = [...this.changed];
      this.changed.clear();
      // Memory keeps the records themselves: rendering lines for no reader was a visible share of a refund.
      const text = this.storage.persistent ? `${keys.map((key) => JSON.stringify(this.records.get(key)!.view)).join('\n')}\n` : '';
      try {
        await this.storage.append(logName(this.prefix, file), text);
      } catch (error) {
        // Not written: the next commit tries these records again (those still kept), and the files stay as they were.
        for (const key of keys) if (this.records.has(key)) this.changed.add(key);
        throw error;
      }
      const firstRow = this.tally.linesOf(file);
      for (let i = 0; i < keys.length; i++) {
        const kept = this.records.get(keys[i]!);
        if (kept) this.moveLine(kept, file, firstRow + i);
        this.retention.written(keys[i]!);
      }
      this.tally.appended(file, keys.length);
      // The next flush starts a new file once this one is full.
      if (this.tally.linesOf(file) >= (this.options.linesPerFile ?? LOG_FILE_LINES)) this.current++;
      // The legacy segments' records are all in the log now (or dropped by the retention).
      const legacy = this.legacy;
      this.legacy = [];
      for (const name of legacy) await this.removeUnneeded(name);
      // Records held back until their latest version was written may go now.
      if (this.records.size > this.options.limit) this.dropPastLimit();
    }
    for (const file of this.tally.numbers()) {
      if (file === this.current || file === this.compacting?.file) continue;
      if (this.tally.unneeded(file)) {
        this.tally.forget(file);
        await this.removeUnneeded(logName(this.prefix, file));
      } else if (this.compacting === undefined && this.storage.persistent && this.tally.dueForRewrite(file)) {
        const done = this.compact(file)
          .catch(() => undefined)
          .finally(() => (this.compacting = undefined));
        this.compacting = { file, done };
      }
    }
  }

  /** Resolves once the rewrite under way, if any, is over (a commit never waits for one: it appends to the current file). */
  async compacted(): Promise<void> {
    while (this.compacting !== undefined) await this.compacting.done;
  }

  /** Outside the commits, which it would hold back; a record changed meanwhile has its latest line in a later file. */
  private async compact(file: number): Promise<void> {
    const name = logName(this.prefix, file);
    try {
      const written = await this.storage.readLog(name);
      const candidates: Array<Kept<T, S>> = [];
      for (const kept of this.records.values()) if (kept.file === file) candidates.push(kept);
      const keyOf = this.keyOf;
      await this.storage.rewrite(name, latestLines(written, candidates.map((kept) => ({ row: kept.row, key: keyOf(kept.view), render: () => kept.line ?? JSON.stringify(kept.view) }))));
      // Their lines' new places; one whose latest line went to a later file meanwhile keeps that one.
      for (let row = 0; row < candidates.length; row++) if (candidates[row]!.file === file) candidates[row]!.row = row;
      this.tally.rewritten(file, candidates.length);
    } catch {
      // Housekeeping, not the commit, and not tried again in this run (a full disk would cost a rewrite each commit).
      this.tally.rewriteFailed(file);
    }
  }

  /** Housekeeping: a failure here fails no commit, and a file left holds only lines a start replaces or drops again. */
  private async removeUnneeded(name: string): Promise<void> {
    try {
      await this.storage.remove(name);
    } catch {
      this.leftover.push(name);
    }
  }

  /** Empties the collection, removing its files (after the write under way, whose file would otherwise close under it). */
  async clear(): Promise<void> {
    await this.writing;
    // A rewrite finishing after the files are removed would bring its lines back.
    await this.compacted();
    for (const file of this.tally.numbers()) await this.storage.remove(logName(this.prefix, file));
    for (const name of [...this.legacy, ...this.leftover]) await this.storage.remove(name);
    this.legacy = [];
    this.leftover = [];
    this.tally.clear();
    this.records.clear();
    this.retention.forget();
    this.changed.clear();
    // Every file read or written is in `live`, so none is left: numbering starts again.
    this.current = 1;
  }

  private moveLine(kept: Kept<T, S>, file: number, row: number): void {
    const held = this.options.changesAgain?.(kept.view) ?? false;
    this.tally.moved(kept.file, kept.held, file, held);
    kept.file = file;
    kept.row = row;
    kept.held = held;
  }

  private dropPastLimit(): void {
    const droppable = this.options.droppable ?? (() => true);
    this.retention.dropPastLimit(
      this.records,
      this.options.limit,
      (key, kept) => droppable(kept.view) && !this.changed.has(key),
      (key, kept) => this.drop(key, kept),
    );
  }

  private drop(key: string, kept: Kept<T, S>): void {
    this.records.delete(key);
    if (kept.file > 0) this.tally.dropped(kept.file, kept.held);
    this.onDrop(kept.view);
  }
}
