/** A collection that grows with traffic, in lowdb segments: a change rewrites only the segments it touched. */
import { Low } from 'lowdb';
import type { DocumentStorage } from './segment-storage.js';
import { segmentName } from './segment-names.js';

export class SegmentedCollection<T> {
  private readonly segments: Array<{ name: string; db: Low<T[]> }> = [];
  private readonly index = new Map<string, { record: T; segment: number }>();
  private readonly dirty = new Set<number>();
  /** Secondary key → primary keys, so lookups cost the same however large the collection grows. */
  private readonly secondary = new Map<string, Set<string>>();

  constructor(
    private readonly storage: DocumentStorage,
    private readonly prefix: string,
    private readonly keyOf: (record: T) => string,
    private readonly options: { segmentSize?: number; secondaryKeyOf?: (record: T) => string | undefined } = {},
  ) {}

  /** Takes the segments read (and checked) at start, in order; reads are served from memory afterwards. */
  load(segments: ReadonlyArray<{ name: string; records: T[] }>): void {
    for (const { name, records } of segments) {
      const db = new Low<T[]>(this.storage.open<T[]>(name), []);
      db.data = records;
      const segment = this.segments.push({ name, db }) - 1;
      for (const record of records) {
        this.index.set(this.keyOf(record), { record, segment });
        this.indexSecondary(record, undefined);
      }
    }
  }

  get(key: string): T | undefined {
    return this.index.get(key)?.record;
  }

  /** The records whose secondary key is `key`, in insertion order. */
  lookup(key: string): T[] {
    return [...(this.secondary.get(key) ?? [])].map((primary) => this.index.get(primary)!.record);
  }

  all(): T[] {
    return [...this.index.values()].map((entry) => entry.record);
  }

  get size(): number {
    return this.index.size;
  }

  /** Adds a record, or replaces the one with the same key in place. */
  put(record: T): void {
    const key = this.keyOf(record);
    const existing = this.index.get(key);
    if (existing) {
      const list = this.segments[existing.segment]!.db.data;
      list[list.indexOf(existing.record)] = record;
      this.index.set(key, { record, segment: existing.segment });
      this.indexSecondary(record, existing.record);
      this.dirty.add(existing.segment);
      return;
    }
    let last = this.segments.length - 1;
    if (last < 0 || this.segments[last]!.db.data.length >= (this.options.segmentSize ?? 100)) {
      const name = segmentName(this.prefix, this.segments.length + 1);
      last = this.segments.push({ name, db: new Low<T[]>(this.storage.open<T[]>(name), []) }) - 1;
    }
    this.segments[last]!.db.data.push(record);
    this.index.set(key, { record, segment: last });
    this.indexSecondary(record, undefined);
    this.dirty.add(last);
  }

  /** Removes the record with this key, if any; its segment is rewritten at the next flush. */
  remove(key: string): boolean {
    const existing = this.index.get(key);
    if (!existing) return false;
    const list = this.segments[existing.segment]!.db.data;
    list.splice(list.indexOf(existing.record), 1);
    this.index.delete(key);
    const secondary = this.options.secondaryKeyOf?.(existing.record);
    if (secondary !== undefined) this.secondary.get(secondary)?.delete(key);
    this.dirty.add(existing.segment);
    return true;
  }

  private indexSecondary(record: T, previous: T | undefined): void {
    const keyOf = this.options.secondaryKeyOf;
    if (!keyOf) return;
    const primary = this.keyOf(record);
    const before = previous === undefined ? undefined : keyOf(previous);
    const after = keyOf(record);
    if (before === after) return;
    if (before !== undefined) this.secondary.get(before)?.delete(primary);
    if (after !== undefined) {
      if (!this.secondary.has(after)) this.secondary.set(after, new Set());
      this.secondary.get(after)!.add(primary);
    }
  }

  /** Writes the segments changed since the last flush. */
  async flush(): Promise<void> {
    const changed = [...this.dirty];
    this.dirty.clear();
    await Promise.all(changed.map((segment) => this.segments[segment]!.db.write()));
  }

  /** Empties the collection, removing its segments from storage. */
  async clear(): Promise<void> {
    for (const { name } of this.segments) await this.storage.remove(name);
    this.segments.length = 0;
    this.index.clear();
    this.secondary.clear();
    this.dirty.clear();
  }
}
