/** Pure: what a record log knows of each file, and two decisions: a file with no needed line is removed, one with a fifth of older versions and no line of a record still held is rewritten. */


interface FileCounts {
  /** Lines in the file, latest or not. */
  lines: number;
  /** Lines that are the latest of a kept record. */
  live: number;
  /** Lines the retention dropped do not count toward a rewrite: such a file is on its way to being removed whole. */
  dropped: number;
  /** Latest lines of records that will change again (a PENDING refund, written again when it is decided). */
  held: number;
  /** False once a rewrite of it failed: it is not tried again in this run (a full disk would cost one at each commit). */
  rewritable: boolean;
}

export class LogFileTally {
  private readonly files = new Map<number, FileCounts>();

  private counts(file: number): FileCounts {
    let counts = this.files.get(file);
    if (counts === undefined) this.files.set(file, (counts = { lines: 0, live: 0, dropped: 0, held: 0, rewritable: true }));
    return counts;
  }

  /** How many lines `file` holds: the row the next line appended to it takes. */
  linesOf(file: number): number {
    return this.files.get(file)?.lines ?? 0;
  }

  /** `count` lines were written to the end of `file` (read at start, or appended). */
  appended(file: number, count: number): void {
    this.counts(file).lines += count;
  }

  /** A record's latest line is now in `to`; it was in `from` (0: none). `held`: whether each line is of a record that will change again. */
  moved(from: number, fromHeld: boolean, to: number, toHeld: boolean): void {
    if (from > 0) {
      const old = this.counts(from);
      old.live--;
      if (fromHeld) old.held--;
    }
    const now = this.counts(to);
    now.live++;
    if (toHeld) now.held++;
  }

  /** The retention dropped a record whose latest line is in `file`; `held`, as it was counted there. */
  dropped(file: number, held = false): void {
    const counts = this.counts(file);
    counts.live--;
    counts.dropped++;
    if (held) counts.held--;
  }

  /** `file` now holds `lines` lines, all of them latest. */
  rewritten(file: number, lines: number): void {
    const counts = this.counts(file);
    counts.lines = lines;
    counts.dropped = 0;
  }

  /** A rewrite of `file` failed: the file stays as it was, and is not rewritten again. */
  rewriteFailed(file: number): void {
    this.counts(file).rewritable = false;
  }

  /** Every file counted, in the order first met. */
  numbers(): number[] {
    return [...this.files.keys()];
  }

  /** No line of `file` is the latest of a kept record: it can go. */
  unneeded(file: number): boolean {
    return (this.files.get(file)?.live ?? 0) === 0;
  }

  /** Whether `file` is worth rewriting now (the head of this file says when). */
  dueForRewrite(file: number): boolean {
    const counts = this.files.get(file);
    if (counts === undefined || !counts.rewritable || counts.held > 0) return false;
    return (counts.lines - counts.live - counts.dropped) * 5 >= counts.lines;
  }

  forget(file: number): void {
    this.files.delete(file);
  }

  clear(): void {
    this.files.clear();
  }
}

/** A record as a record log keeps it: its view, and the text of its latest line while that is as read at start, parsed only when the record is asked for (docs/performance.md). */
export class KeptRecord<V> {
  /** The log file (number) holding the record's latest line; 0 for a record not written to a log yet. */
  file = 0;
  /** Which line of that file it is, from 0: a rewrite copies the line from the file rather than render it again. */
  row = 0;
  /** Whether that line is of a record that will change again (`changesAgain`): its file is not rewritten meanwhile. */
  held = false;

  constructor(
    /** The record; or, while `line` holds its text, only the fields read out of that text. */
    public view: V,
    /** The record's latest line as read at start, when the record has not been parsed or changed since. */
    public line: string | undefined,
  ) {}
}

/** Pure: the order a start gives the records it read: compacted files may put a record's first line after younger records' lines, so each place is noted and `reorder` sorts when needed. */
export class PlacesMet<S> {
  /** Each record's place, in the order the records were met. */
  private readonly places: number[] = [];
  private last = -Infinity;
  private outOfOrder = false;

  constructor(private readonly placeOf: ((record: S) => number) | undefined) {}

  /** A record met for the first time. */
  met(record: S): void {
    if (this.placeOf === undefined) return;
    const place = this.placeOf(record);
    this.places.push(place);
    if (place < this.last) this.outOfOrder = true;
    else this.last = place;
  }

  /** A stable sort of numbers, in place order, those at one place in the order met; false when already in order. */
  reorder<V>(records: Map<string, V>): boolean {
    if (!this.outOfOrder) return false;
    const keys = Array.from(records.keys());
    const values = Array.from(records.values());
    const places = this.places;
    const order = Array.from(keys.keys()).sort((a, b) => places[a]! - places[b]! || a - b);
    records.clear();
    for (const index of order) records.set(keys[index]!, values[index]!);
    return true;
  }
}
