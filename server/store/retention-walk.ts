/**
 * A record log's retention (record-log.ts): past the limit the oldest records go, never one that must stay (a refund
 * still to be decided, or one whose latest version is not written yet). The walk goes on from where it stopped, and
 * passes over each record that must stay once, coming back to it only when it is written again.
 */
export class RetentionWalk<V> {
  /**
   * Where the walk stands: it goes through the records oldest first, and the next drop goes on from there instead
   * of walking the Map from its start over the slots its deleted records leave (V8 reuses them only when it rehashes:
   * up to half the table, which cost 3% of a refund's CPU at the bound).
   */
  private walk: Iterator<[string, V]> | undefined;
  /**
   * The records the walk passed over and kept, each with its place in the walk. They are older than every record the
   * walk has not reached. They are not walked again: a walk that started over at each drop met every held record
   * again, so that a refund past the bound cost as many steps as there were PENDING refunds: 22% of the CPU with 2,000
   * PENDING past a limit of 100, and up to half the rate with `--refund-delay-ms 10000` at 2,000 refunds a second,
   * past the default 20,000.
   */
  private readonly held = new Map<string, number>();
  private passed = 0;
  /**
   * Held records written since they were passed over, which may go now: tried before the walk goes on, the oldest
   * first (kept sorted newest first, so the oldest is last).
   */
  private ready: string[] = [];
  private readonly readyKeys = new Set<string>();
  private readySorted = true;

  /** A record was written: if the walk held it, it is tried again at the next drop. */
  written(key: string): void {
    if (!this.held.has(key) || this.readyKeys.has(key)) return;
    this.readyKeys.add(key);
    this.ready.push(key);
    this.readySorted = false;
  }

  /**
   * Drops records while `records` (a Map in the order records are kept, oldest first) holds more than `limit`:
   * `drop` must take the record out of `records`; `mayGo` says whether it may go now.
   */
  dropPastLimit(records: Map<string, V>, limit: number, mayGo: (key: string, value: V) => boolean, drop: (key: string, value: V) => void): void {
    // First the held records written since they were passed over: older than any the walk has not reached. A record
    // that must stay still is tried again once it is written again (a PENDING refund, once decided).
    if (this.ready.length > 0 && records.size > limit) {
      if (!this.readySorted) {
        this.ready.sort((a, b) => this.held.get(b)! - this.held.get(a)!);
        this.readySorted = true;
      }
      while (records.size > limit && this.ready.length > 0) {
        const key = this.ready.pop()!;
        this.readyKeys.delete(key);
        const value = records.get(key)!;
        if (!mayGo(key, value)) continue;
        this.held.delete(key);
        drop(key, value);
      }
    }
    // Then on from where the walk stopped, the oldest first; a record that must stay is passed over, so a held record
    // costs the bound nothing but itself. Nor does one whose latest version is not written yet go: its line on disk
    // may be an older one the `droppable` test would refuse (a refund still PENDING there), which a start would bring
    // back. Every record not held is one the walk has not reached, so it stops before it runs out: a Map's iterator
    // that has run out sees no record added later.
    this.walk ??= records.entries();
    while (records.size > limit && records.size > this.held.size) {
      const next = this.walk.next();
      if (next.done === true) {
        // Not reached while the counts hold; if they ever did not, the next drop walks from the oldest again.
        this.forget();
        break;
      }
      const [key, value] = next.value;
      if (mayGo(key, value)) drop(key, value);
      else this.held.set(key, this.passed++);
    }
  }

  /** The walk starts again from the oldest record: after the records were put in another order, or all removed. */
  forget(): void {
    this.walk = undefined;
    this.held.clear();
    this.passed = 0;
    this.ready = [];
    this.readyKeys.clear();
    this.readySorted = true;
  }
}
