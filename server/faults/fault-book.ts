/**
 * The fault rules in force and their storage: the pure registry, written to the state document
 * on every change. A change made through the control API is answered once it is on disk; the counters a request
 * moves are written behind it, so a fault never waits on the disk.
 */
import type { Logger } from '../logger.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { FaultRegistry, type FaultRuleView, type FiredFault } from './fault-registry.js';
import type { FaultRule } from './fault-rule-types.js';
import type { FaultRequest } from './match-fault.js';

export interface FaultBookOptions {
  store: SandboxStore;
  logger: Logger;
  /** --faults: the rules of the start; they replace any stored ones. Undefined: keep the stored rules. */
  initial?: FaultRule[];
  random: () => number;
  clock: () => number;
}

export class FaultBook {
  private readonly registry: FaultRegistry;
  private readonly store: SandboxStore;
  private readonly logger: Logger;
  /** Where the rules in force at start came from, for the banner. */
  readonly startedWith: 'file' | 'stored' | 'none';

  private constructor(options: FaultBookOptions) {
    this.store = options.store;
    this.logger = options.logger;
    const stored = options.initial === undefined ? options.store.faultRules() : undefined;
    this.registry = new FaultRegistry({ initial: options.initial ?? [], stored, random: options.random, clock: options.clock });
    this.startedWith = options.initial !== undefined ? 'file' : this.registry.size > 0 ? 'stored' : 'none';
  }

  static async open(options: FaultBookOptions): Promise<FaultBook> {
    const book = new FaultBook(options);
    if (options.initial !== undefined) await book.save();
    return book;
  }

  list(): FaultRuleView[] {
    return this.registry.list();
  }

  get(id: string): FaultRuleView | undefined {
    return this.registry.get(id);
  }

  get size(): number {
    return this.registry.size;
  }

  /** Throws DuplicateFaultIdError; resolves once the rules are on disk. */
  async add(rules: FaultRule[]): Promise<FaultRuleView[]> {
    const added = this.registry.add(rules);
    await this.save();
    return added;
  }

  async remove(id: string): Promise<FaultRuleView | undefined> {
    const removed = this.registry.remove(id);
    if (removed) await this.save();
    return removed;
  }

  async clear(): Promise<number> {
    const count = this.registry.clear();
    await this.save();
    return count;
  }

  /** Back to the rules of the start (after the store itself was reset). */
  async reset(): Promise<void> {
    this.registry.reset();
    await this.save();
  }

  /** The fault for one request; the counters it moved are stored behind the answer. */
  pick(request: FaultRequest): FiredFault | undefined {
    const { fired, counted } = this.registry.pick(request);
    if (counted) {
      this.store.putFaultRules(this.registry.snapshot());
      this.store.commit().catch((error: unknown) => this.logger.error({ err: error }, 'fault rule counters not stored'));
    }
    return fired;
  }

  private save(): Promise<void> {
    this.store.putFaultRules(this.registry.snapshot());
    return this.store.commit();
  }
}
