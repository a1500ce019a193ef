/** The fault rules in force, msw-style: the newest tried first, the first that fires answers, a rule used up expires; a change is stored before it is answered, counters behind. */
import type { Logger } from '../logger.js';
import type { FaultAction, FaultRule } from './fault-rule-types.js';
import type { FaultKind } from './fault-rules.js';
import { matchFault, type FaultRequest } from './match-fault.js';

export type FaultSource = 'api' | 'file';

/** A rule in force, with its counters. */
export interface ActiveFaultRule extends FaultRule {
  id: string;
  source: FaultSource;
  addedAt: string;
  /** Matching requests this rule was asked about. */
  seen: number;
  /** Times it fired. */
  fired: number;
}

/** What GET /_sandbox/faults shows: the rule, and what it has left. */
export interface FaultRuleView extends ActiveFaultRule {
  /** Firings left before it expires; null: no limit. */
  left: number | null;
  /** Matching requests still let through by `after`. */
  skipping: number;
}

/** The fault that answers one request: a rule's action, or the x-sandbox-fault header's. */
export interface FiredFault {
  rule: string;
  kind: FaultKind;
  action: FaultAction;
  source: FaultSource | 'header';
  description?: string;
}

/** How messages name what injected a fault: `fault rule outage`, or `the x-sandbox-fault header`. */
export function faultLabel(fault: { rule: string; source: FiredFault['source'] }): string {
  return fault.source === 'header' ? 'the x-sandbox-fault header' : `fault rule ${fault.rule}`;
}

export interface FaultRegistryOptions {
  /** The rules of the start (--faults), restored by reset(). */
  initial: FaultRule[];
  /** Rules kept from an earlier run, used instead of `initial` at construction when given. */
  stored?: ActiveFaultRule[];
  /** In [0, 1); injected so `probability` is tested without chance. */
  random: () => number;
  clock: () => number;
  save?: (rules: ActiveFaultRule[]) => Promise<void>;
  onSaveError?: (error: unknown) => void;
}

/** A rule id that is already in force. */
export class DuplicateFaultIdError extends Error {
  constructor(readonly id: string) {
    super(`a fault rule '${id}' is already in force`);
    this.name = 'DuplicateFaultIdError';
  }
}

export class FaultRegistry {
  /** Newest first: the order rules are tried in. */
  private rules: ActiveFaultRule[] = [];
  private readonly initial: ActiveFaultRule[];
  private nextNumber = 1;
  /** Settles once the last change is stored. */
  saved: Promise<void> = Promise.resolve();
  /** Where the rules in force at start came from, for the banner. */
  startedWith: 'file' | 'stored' | 'none' = 'none';

  constructor(private readonly options: FaultRegistryOptions) {
    this.initial = this.activate(options.initial, 'file');
    if (options.stored) {
      this.rules = structuredClone(options.stored);
      for (const rule of this.rules) this.nextNumber = Math.max(this.nextNumber, (Number(/^fault-(\d+)$/.exec(rule.id)?.[1]) || 0) + 1);
    } else {
      this.reset();
    }
  }

  /** The rules in the order they are tried, with what each has left. */
  list(): FaultRuleView[] {
    return this.rules.map(view);
  }

  /** The rules and their counters as they are stored. */
  snapshot(): ActiveFaultRule[] {
    return structuredClone(this.rules);
  }

  get(id: string): FaultRuleView | undefined {
    const rule = this.rules.find((candidate) => candidate.id === id);
    return rule && view(rule);
  }

  get size(): number {
    return this.rules.length;
  }

  /** Puts `rules` in front, in their own order (the first of them is tried first). Throws DuplicateFaultIdError. */
  add(rules: FaultRule[]): FaultRuleView[] {
    for (const rule of rules) if (rule.id !== undefined && this.rules.some((existing) => existing.id === rule.id)) throw new DuplicateFaultIdError(rule.id);
    const added = this.activate(rules, 'api');
    this.rules = [...added, ...this.rules];
    this.changed();
    return added.map(view);
  }

  remove(id: string): FaultRuleView | undefined {
    const index = this.rules.findIndex((rule) => rule.id === id);
    if (index === -1) return undefined;
    const [removed] = this.rules.splice(index, 1);
    this.changed();
    return view(removed!);
  }

  /** Removes every rule; answers how many there were. */
  clear(): number {
    const count = this.rules.length;
    this.rules = [];
    this.changed();
    return count;
  }

  /** Back to the rules of the start, counters at zero. */
  reset(): void {
    this.rules = structuredClone(this.initial);
    this.changed();
  }

  private changed(): void {
    if (this.options.save) this.saved = this.options.save(this.snapshot());
  }

  /** Each rule that matches counts the request and fires unless `after`, `every` or `probability` lets it pass; `counted` says a counter moved. */
  pick(request: FaultRequest): { fired?: FiredFault; counted: boolean } {
    let counted = false;
    for (const rule of this.rules) {
      if (!matchFault(rule.match, request)) continue;
      counted = true;
      rule.seen += 1;
      const past = rule.seen - (rule.after ?? 0);
      if (past <= 0) continue;
      if (rule.every !== undefined && past % rule.every !== 0) continue;
      if (rule.probability !== undefined && this.options.random() >= rule.probability) continue;
      rule.fired += 1;
      if (rule.times !== undefined && rule.fired >= rule.times) this.rules = this.rules.filter((other) => other !== rule);
      this.savedBehind();
      return {
        counted,
        fired: { rule: rule.id, kind: rule.action.kind, action: rule.action, source: rule.source, ...(rule.description ? { description: rule.description } : {}) },
      };
    }
    if (counted) this.savedBehind();
    return { counted };
  }

  private savedBehind(): void {
    this.options.save?.(this.snapshot()).catch((error: unknown) => this.options.onSaveError?.(error));
  }

  private activate(rules: FaultRule[], source: FaultSource): ActiveFaultRule[] {
    const addedAt = new Date(this.options.clock()).toISOString();
    const taken = new Set([...this.rules, ...(this.initial ?? [])].map((rule) => rule.id).concat(rules.flatMap((rule) => rule.id ?? [])));
    const freshId = (): string => {
      let id = `fault-${this.nextNumber++}`;
      while (taken.has(id)) id = `fault-${this.nextNumber++}`;
      return id;
    };
    return rules.map(({ id, ...rule }) => ({
      id: id ?? freshId(),
      ...structuredClone(rule),
      source,
      addedAt,
      seen: 0,
      fired: 0,
    }));
  }
}

function view(rule: ActiveFaultRule): FaultRuleView {
  return {
    ...structuredClone(rule),
    left: rule.times === undefined ? null : rule.times - rule.fired,
    skipping: Math.max(0, (rule.after ?? 0) - rule.seen),
  };
}

/** The rules of --faults (which replace any stored ones), else those stored; kept in the store at every change. */
/** Where the rules are kept: the sandbox's store. */
export interface FaultStore {
  faultRules(): ActiveFaultRule[] | undefined;
  putFaultRules(rules: ActiveFaultRule[]): void;
  commit(): Promise<void>;
}

export async function openFaultRegistry(options: { store: FaultStore; logger: Logger; initial?: FaultRule[]; random: () => number; clock: () => number }): Promise<FaultRegistry> {
  const { store, initial } = options;
  const registry = new FaultRegistry({
    initial: initial ?? [],
    stored: initial === undefined ? store.faultRules() : undefined,
    random: options.random,
    clock: options.clock,
    save: (rules) => {
      store.putFaultRules(rules);
      return store.commit();
    },
    onSaveError: (error) => options.logger.error({ err: error }, 'fault rule counters not stored'),
  });
  registry.startedWith = initial !== undefined ? 'file' : registry.size > 0 ? 'stored' : 'none';
  await registry.saved;
  return registry;
}
