/** Asynchronous refunds (§1, §4.1 rule 2): accepted PENDING, decided `delayMs` later, on an injected clock and timer. */
import { EventEmitter } from 'node:events';
import { decideRefund, decidedRecord, type RefundRecord, type RefundView } from './refund-rules.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { isoTime } from '../http/iso-time.js';

/** Schedules `run` in `ms` and returns a cancel function. */
export type SetTimer = (run: () => void, ms: number) => () => void;

export const realTimer: SetTimer = (run, ms) => {
  const handle = setTimeout(run, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

export interface RefundProcessorDeps {
  store: SandboxStore;
  locationIds: ReadonlySet<string>;
  clock: () => number;
  newId: () => string;
  delayMs: number;
  setTimer?: SetTimer;
  /** Refunds due but not stored (the database away, the lead lost) stay decided in memory, and the next write stores them. */
  onError?: (error: unknown) => void;
}

export interface AcceptRefund {
  externalId: string;
  locationId: string;
  partner: string;
  requestId: string;
  journalId: string;
}

/** Emits `accepted` with each refund once it is on disk, and `settled` with each one it decides. */
export class RefundProcessor extends EventEmitter<{ accepted: [RefundRecord]; settled: [RefundRecord] }> {
  private cancelTimer: (() => void) | undefined;
  private timerAt = Infinity;
  /** PENDING refunds in acceptance order: bounded by traffic × delay, not by history. */
  private readonly pending = new Map<string, RefundRecord>();
  /** By location then ExternalId, so the duplicate finding allocates no joined key per refund. */
  private readonly latestByOrder = new Map<string, Map<string, RefundView>>();
  /** Each location string held once, not once per refund (a header makes a new string every call). */
  private readonly locations: ReadonlyMap<string, string>;

  constructor(private readonly deps: RefundProcessorDeps) {
    super();
    this.locations = new Map(Array.from(deps.locationIds, (id) => [id, id]));
    // A refund dropped by the store's retention no longer draws the duplicate finding: the index stays as bounded as the store.
    deps.store.refunds.onDrop = (refund) => {
      const atLocation = this.latestByOrder.get(refund.locationId);
      if (atLocation?.get(refund.externalId)?.id !== refund.id) return;
      atLocation.delete(refund.externalId);
      if (atLocation.size === 0) this.latestByOrder.delete(refund.locationId);
    };
    this.reload();
  }

  /** How many refunds wait for their decision: a partner with any is not put away (server/hosted/). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Re-reads the PENDING refunds from the store (at start, and after a reset). */
  reload(): void {
    this.stop();
    this.pending.clear();
    this.latestByOrder.clear();
    const refunds = this.deps.store.refunds;
    for (const view of refunds.views()) {
      // Only a PENDING refund is needed whole, to decide it; the others only answer the duplicate finding.
      if (view.status === 'PENDING') this.track(refunds.get(view.id)!);
      else this.index(view);
    }
  }

  private track(refund: RefundRecord): void {
    if (refund.status === 'PENDING') this.pending.set(refund.id, refund);
    else this.pending.delete(refund.id);
    this.index(refund);
  }

  private index(refund: RefundView): void {
    let atLocation = this.latestByOrder.get(refund.locationId);
    if (atLocation === undefined) this.latestByOrder.set(refund.locationId, (atLocation = new Map()));
    const latest = atLocation.get(refund.externalId);
    if (latest === undefined || latest.id === refund.id || latest.acceptedAt <= refund.acceptedAt) atLocation.set(refund.externalId, refund);
  }

  /** Records a PENDING refund and returns it once it is on disk. */
  async accept(input: AcceptRefund): Promise<RefundRecord> {
    const now = this.deps.clock();
    const refund: RefundRecord = {
      id: `rf-${this.deps.newId()}`,
      ...input,
      // In its place among the keys (the log's lines are read in the writer's key order, decode-log-file.ts).
      locationId: this.locations.get(input.locationId) ?? input.locationId,
      status: 'PENDING',
      acceptedAt: isoTime(now),
      dueAt: isoTime(now + this.deps.delayMs),
    };
    this.deps.store.refunds.put(refund);
    this.track(refund);
    await this.deps.store.commit();
    this.emit('accepted', refund);
    this.schedule();
    return refund;
  }

  /** The latest refund already requested for this order at this location, if any. */
  latestRefund(externalId: string, locationId: string): RefundView | undefined {
    return this.latestByOrder.get(locationId)?.get(externalId);
  }

  /** Decides every refund that is due, in the order they were accepted, and writes once. */
  async runDue(): Promise<RefundRecord[]> {
    const now = this.deps.clock();
    // Pending refunds are in acceptance order, so the due ones come first: stop at the first that is not.
    const due: RefundRecord[] = [];
    for (const refund of this.pending.values()) {
      if (Date.parse(refund.dueAt) > now) break;
      due.push(refund);
    }
    const settled: RefundRecord[] = [];
    for (const refund of due) {
      const decision = decideRefund(refund, this.deps.locationIds, this.deps.store.orders.lookup(refund.externalId));
      const done = decidedRecord(refund, decision, isoTime(now));
      if (decision.orderId) {
        const order = this.deps.store.orders.get(decision.orderId);
        const at = isoTime(now);
        if (order) {
          const history = [...(order.History ?? []), { status: 'REFUNDED' as const, at, by: 'refund' as const, reason: done.id }];
          this.deps.store.orders.put({ ...order, Status: 'REFUNDED', UpdatedAt: at, History: history });
        }
      }
      this.deps.store.refunds.put(done);
      this.track(done);
      settled.push(done);
    }
    if (settled.length > 0) await this.deps.store.commit();
    for (const refund of settled) this.emit('settled', refund);
    this.schedule();
    return settled;
  }

  /** Starts the timer for refunds left PENDING by an earlier run (they survive a restart). */
  start(): void {
    this.schedule();
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Infinity;
  }

  private schedule(): void {
    // Refunds are accepted in time order with one delay, so the first pending one is due first.
    const first = this.pending.values().next().value;
    const next = first === undefined ? Infinity : Date.parse(first.dueAt);
    if (!Number.isFinite(next) || next >= this.timerAt) return;
    this.stop();
    this.timerAt = next;
    const setTimer = this.deps.setTimer ?? realTimer;
    this.cancelTimer = setTimer(() => {
      this.timerAt = Infinity;
      this.cancelTimer = undefined;
      // A timer's promise has nobody to answer to: a store that does not answer must not end the process.
      void this.runDue().catch((error: unknown) => this.deps.onError?.(error));
    }, Math.max(0, next - this.deps.clock()));
  }
}
