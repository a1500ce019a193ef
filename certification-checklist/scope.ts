/** Pure: which items a run judges, from --only, the declared capabilities and the mode. */
import type { Capability, ChecklistItem } from './checklist-types.js';

export type RunMode = 'driver' | 'interactive' | 'passive';

/** The message of an item left out with --only: outside the run, not counted against it. */
export const ONLY_SKIPPED = 'not selected (--only)';

export interface Scope {
  capabilities: ReadonlySet<Capability>;
  /** Item ids to run; undefined: all of them. */
  only?: ReadonlySet<string>;
  mode: RunMode;
}

/** Why an item will not be judged in this run, or undefined when it will be. */
export function outOfScope(item: ChecklistItem, scope: Scope): { status: 'not_applicable' | 'skipped'; message: string } | undefined {
  // An item left out with --only is out of the run whatever it needs: it is not listed as not applicable either.
  if (scope.only && !scope.only.has(item.id)) return { status: 'skipped', message: ONLY_SKIPPED };
  const missing = (item.capabilities ?? []).filter((capability) => !scope.capabilities.has(capability));
  if (missing.length > 0) {
    const which = missing.length === 1 ? `the capability ${missing[0]}, which was` : `the capabilities ${missing.join(' and ')}, which were`;
    return { status: 'not_applicable', message: `needs ${which} not declared (--capabilities)` };
  }
  if (scope.mode === 'passive' && !item.passive) return { status: 'skipped', message: 'the POS must be made to act for this item: run with --driver or --interactive' };
  return undefined;
}

/** Item ids and capability names from a comma list; unknown ones are listed with the known ones. */
export function parseList<T extends string>(list: string | undefined, known: readonly T[], what: string, plural = `${what}s`): { ok: true; values: T[] } | { ok: false; problem: string } {
  const values = (list ?? '').split(',').map((value) => value.trim()).filter((value) => value !== '');
  const unknown = values.filter((value) => !known.includes(value as T));
  if (unknown.length > 0) return { ok: false, problem: `unknown ${what} ${unknown.map((value) => `'${value}'`).join(', ')}; the ${plural} are ${known.join(', ')}` };
  return { ok: true, values: values as T[] };
}
