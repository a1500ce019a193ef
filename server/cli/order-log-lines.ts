/**
 * Which order changes `serve` logs: one line per state an order enters. The desk says "changed" for every change,
 * and a delivery try that fails and is tried again changes the order (its deliveries) while its state stays
 * DISPATCHED, which logged `order DISPATCHED` once per try. A state is new when the history has grown.
 */
export class OrderLogLines {
  /** OrderId → the history length last logged; the oldest forgotten past `limit` (orders are bounded anyway). */
  private readonly logged = new Map<string, number>();

  constructor(private readonly limit = 10_000) {}

  /** True once per state entered: when the order's history is longer than when it was last logged. */
  isNewState(orderId: string, historyLength: number): boolean {
    const last = this.logged.get(orderId) ?? 0;
    if (historyLength <= last) return false;
    this.logged.delete(orderId);
    this.logged.set(orderId, historyLength);
    if (this.logged.size > this.limit) this.logged.delete(this.logged.keys().next().value!);
    return true;
  }
}
