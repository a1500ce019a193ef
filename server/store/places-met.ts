/**
 * Pure: the order a start gives the records it read (record-log.ts). A start meets a record at its first line left,
 * and once files are compacted that line may come after the lines of younger records (a third of them, in a log
 * filled at 2,000 refunds a second). Each record's place (a refund's acceptance time) is noted as it is met; when
 * they were not met in order, `reorder` puts them in it.
 */
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

  /**
   * Puts `records` (every record met, in the order met) in the order of their places, those at the same place in the
   * order met; false when they were in it already. A stable sort of numbers: comparing the records' strings took 0.1 s
   * for 100,000.
   */
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
