/**
 * Pure: what a record log knows of each of its files, counted as lines are written, replaced and dropped, and the two
 * decisions made from it: a file none of whose lines is needed is removed, and a file with enough older versions is
 * rewritten with its latest lines only (record-log.ts does both).
 *
 * A file is rewritten once a fifth of its lines or more are older versions of kept records, and none of its lines is
 * the latest of a record still held (a PENDING refund, which will be written again when it is decided). Without that
 * second condition a file was rewritten two or three times as its refunds were decided one commit after another, each
 * time read, split and written whole.
 */
interface FileCounts {
  /** Lines in the file, latest or not. */
  lines: number;
  /** Lines that are the latest of a kept record. */
  live: number;
  /**
   * Lines of records the retention dropped. They do not count toward a rewrite: the retention drops the oldest
   * first, so such a file is on its way to being removed whole, and rewriting it at every fifth of its records
   * dropped cost a walk over every kept record each time.
   */
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
