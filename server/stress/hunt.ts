/** The hunt: generated orders until one fails, shrunk by fast-check to the smallest that fails the same way, then on to the next failure; a seed gives the same orders and findings again. */
import fc from 'fast-check';
import type { Location, Menu } from '../fixtures/fixture-schemas.js';
import { orderArbitrary, withPartsLess } from './order-arbitrary.js';
import type { StressCase, FailureKind, Verdict } from './delivery-verdict.js';

/** Past this many sends, the parts are taken out one at a time, or a slow POS would cost every shrink. */
export const SHRINK_BUDGET = 30;
/** And this long in all: a failing order costs the POS's retries or its timeout each time. */
export const SHRINK_MS = 30_000;
/** A POS whose every answer says something new would make every order a finding: a kind found this often is not hunted again. */
export const MAX_PER_KIND = 3;

export interface Finding {
  kind: FailureKind;
  /** What tells it from another failure of its kind (delivery-verdict.ts). */
  signature: string;
  message: string;
  /** The smallest order found that fails this way. */
  minimal: StressCase;
  /** The order that first failed this way, before shrinking. */
  first: StressCase;
  /** Which order of the run it was (1-based), and how many shrinks were taken. */
  atOrder: number;
  shrinks: number;
  /** Whether shrinking ended before its time ran out: then removing any one part of `minimal` makes the failure go away. */
  minimalCertain: boolean;
}

/** How a case is sent: as a shrink of a failure found, and with one try or the sandbox's own. */
export interface Sending {
  shrinking: boolean;
  oneTry: boolean;
}

export interface HuntOptions {
  seed: number;
  orders: number;
  locations: readonly Location[];
  menus: Readonly<Record<string, Menu>>;
  /** With one try once the POS has failed an order (the first try decides the verdict), else as any order, retries included. */
  run: (testCase: StressCase, sending: Sending) => Promise<Verdict>;
  /** How long fast-check's shrinking may take for one failure (default SHRINK_MS); the part-by-part pass follows. */
  shrinkMs?: number;
  /** Told of every order sent and its verdict, shrinks included (a live view). */
  onOrder?: (testCase: StressCase, verdict: Verdict, shrinking: boolean) => void;
  /** Told of each finding once it is shrunk. */
  onFinding?: (finding: Finding) => void;
}

export interface HuntResult {
  seed: number;
  /** Orders generated (each sent once); shrinking sends more, counted apart. */
  generated: number;
  sentWhileShrinking: number;
  passed: number;
  findings: Finding[];
}

/** One order in ten is delivered twice: the ExternalId must not change. */
export function caseArbitrary(locations: readonly Location[], menus: Readonly<Record<string, Menu>>): fc.Arbitrary<StressCase> {
  return fc.record({ order: orderArbitrary(locations, menus), duplicate: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) });
}

export async function hunt(options: HuntOptions): Promise<HuntResult> {
  const arbitrary = caseArbitrary(options.locations, options.menus);
  const findings: Finding[] = [];
  let generated = 0;
  let sentWhileShrinking = 0;
  let passed = 0;
  for (let round = 0; generated < options.orders; round++) {
    let target: { kind: FailureKind; signature: string; message: string; first: StressCase; atOrder: number } | undefined;
    let smallest: { testCase: StressCase; message: string } | undefined;
    // The sandbox out of reach is no failure of the POS: the hunt stops and says so.
    let broken: Error | undefined;
    let shrinkSends = 0;
    let shrinkUntil = Number.POSITIVE_INFINITY;
    const property = fc.asyncProperty(arbitrary, async (testCase) => {
      const shrinking = target !== undefined;
      // Past the budget, every further shrink is declined without being sent.
      if (shrinking && (shrinkSends >= SHRINK_BUDGET || performance.now() > shrinkUntil)) return true;
      if (shrinking) {
        sentWhileShrinking++;
        shrinkSends++;
      }
      else generated++;
      let verdict: Verdict;
      try {
        verdict = await options.run(testCase, { shrinking, oneTry: shrinking || findings.length > 0 });
      } catch (error) {
        broken = error as Error;
        throw error;
      }
      options.onOrder?.(testCase, verdict, shrinking);
      if (verdict.ok) {
        if (!shrinking) passed++;
        return true;
      }
      // A failure found already, or a kind found MAX_PER_KIND times, is not hunted again; while shrinking, only the failure shrunk counts.
      if (!shrinking && (findings.some((finding) => finding.signature === verdict.signature) || findings.filter((finding) => finding.kind === verdict.kind).length >= MAX_PER_KIND)) return true;
      if (!shrinking) {
        target = { kind: verdict.kind, signature: verdict.signature, message: verdict.message, first: testCase, atOrder: generated };
        shrinkUntil = performance.now() + (options.shrinkMs ?? SHRINK_MS);
      }
      if (verdict.signature !== target!.signature) return true;
      smallest = { testCase, message: verdict.message };
      return false;
    });
    const details = await fc.check(property, { seed: options.seed + round, numRuns: options.orders - generated });
    if (broken !== undefined) throw broken;
    if (!details.failed || target === undefined || smallest === undefined) break;
    // Then part by part: any part whose removal keeps the same failure goes, until none does.
    let current = smallest;
    for (let taken = true; taken && performance.now() < shrinkUntil; ) {
      taken = false;
      for (const { testCase } of withPartsLess(current.testCase)) {
        if (performance.now() >= shrinkUntil) break;
        sentWhileShrinking++;
        const verdict = await options.run(testCase, { shrinking: true, oneTry: true });
        options.onOrder?.(testCase, verdict, true);
        if (!verdict.ok && verdict.signature === target.signature) {
          current = { testCase, message: verdict.message };
          taken = true;
          break;
        }
      }
    }
    const finding: Finding = { kind: target.kind, signature: target.signature, message: current.message, minimal: current.testCase, first: target.first, atOrder: target.atOrder, shrinks: details.numShrinks, minimalCertain: performance.now() < shrinkUntil };
    findings.push(finding);
    options.onFinding?.(finding);
  }
  return { seed: options.seed, generated, sentWhileShrinking, passed, findings };
}
