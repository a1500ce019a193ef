/** Pure: what kind of run a report records, so a demo or a partial run never passes for a certification: only a full driver or interactive run of a named POS that is not the reference POS is one. */
import type { RunMode } from './scope.js';

export const RUN_KINDS = ['certification', 'demo', 'partial', 'passive', 'practice'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** The POS under test, as the run names it (--pos-name, --pos-version, --pos-build). */
export interface PosUnderTest {
  name: string;
  version?: string;
  build?: string;
  /** The bundled reference POS (npm run demo, or a driver that says it is one). */
  referencePos?: boolean;
}

export interface RunKindInput {
  mode: RunMode;
  only?: readonly string[];
  pos: PosUnderTest;
}

export interface RunKindVerdict {
  kind: RunKind;
  /** Why the run is (or is not) a certification, in a sentence. */
  reason: string;
}

export function runKind({ mode, only, pos }: RunKindInput): RunKindVerdict {
  if (pos.referencePos) return { kind: 'demo', reason: 'the POS under test is the bundled reference POS' };
  if (mode === 'passive') return { kind: 'passive', reason: 'it judges only what the journal held; the POS was not made to act' };
  if (only && only.length > 0) return { kind: 'partial', reason: `only ${only.join(', ')} ${only.length === 1 ? 'was' : 'were'} run (--only)` };
  if (!pos.version) return { kind: 'practice', reason: 'the POS version was not given (--pos-version), so the report cannot say which build it is about' };
  return { kind: 'certification', reason: `every required item of the declared capabilities, run in ${mode} mode against ${posLabel(pos)}` };
}

/** `acme-pos 4.2.0 (build 1187)`, or the name alone. */
export function posLabel(pos: PosUnderTest): string {
  return `${pos.name}${pos.version ? ` ${pos.version}` : ''}${pos.build ? ` (build ${pos.build})` : ''}${pos.referencePos ? ' (the bundled reference POS)' : ''}`;
}

const KIND_WORDS: Record<Exclude<RunKind, 'certification'>, string> = {
  demo: 'Demo run',
  partial: 'Partial run',
  passive: 'Passive run',
  practice: 'Practice run',
};

/** The title of every rendering: a certification names the POS; anything else says, first, that it is not one. */
export function reportTitle(kind: RunKind, pos: PosUnderTest): string {
  if (kind === 'certification') return `POS certification report: ${posLabel(pos)}`;
  return `${KIND_WORDS[kind]}, not a certification: ${posLabel(pos)}`;
}
