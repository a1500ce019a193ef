/** The oldest go first (docs/state-file.md): a day of testing stays whole, while a load test's hundred thousand would cost memory and start time for records nobody reads. */


export const DEFAULT_REFUND_LIMIT = 20_000;

/** A record log's retention: the oldest go past the limit, never one that must stay; the walk goes on where it stopped and passes each held record once. */
export class RetentionWalk<V> {
  /** Where the walk stands, so the next drop does not walk the Map over its deleted slots again. */
  private walk: Iterator<[string, V]> | undefined;
  /** Records passed over and kept, with their place; not walked again, or each drop past the bound cost a step per PENDING refund. */
  private readonly held = new Map<string, number>();
  private passed = 0;
  /** Held records written since, which may go now, oldest last. */
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

  /** Drops while `records` (oldest first) holds more than `limit`; `drop` must take the record out. */
  dropPastLimit(records: Map<string, V>, limit: number, mayGo: (key: string, value: V) => boolean, drop: (key: string, value: V) => void): void {
    // First the held records written since they were passed over: older than any not reached.
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
    // Then on from where the walk stopped; a held record, or one whose latest version is not written yet (a start would bring its older line back), is passed over.
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
