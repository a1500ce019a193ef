/** Pure: which live instance should lead a partner, by rendezvous hashing: every instance computes the same owner, and one that joins or leaves moves only its share. */
import { createHash } from 'node:crypto';

/** The pair's weight: the first 8 bytes of SHA-256 over both names, as an unsigned 64-bit number. */
export function weight(partner: string, instanceId: string): bigint {
  return createHash('sha256').update(partner).update('\u0000').update(instanceId).digest().readBigUInt64BE(0);
}

/** The instance among `instances` that owns `partner`; undefined when there is none. Ties (never seen) go to the smaller id. */
export function ownerOf(partner: string, instances: readonly string[]): string | undefined {
  let best: { id: string; weight: bigint } | undefined;
  for (const id of instances) {
    const score = weight(partner, id);
    if (best === undefined || score > best.weight || (score === best.weight && id < best.id)) best = { id, weight: score };
  }
  return best?.id;
}

/** Pure: what a partner's slot does at each check, from the owner and the leaders table's row as last read. */

export interface FollowingView {
  self: string;
  /** Whether this instance's own lease runs: without it, it takes nothing. */
  selfLive: boolean;
  owner: string | undefined;
  /** The leaders table's row, as last read; undefined when the partner never ran. */
  row: { instanceId: string } | undefined;
  /** Whether the row's instance is live. */
  rowLive: boolean;
  /** Partners are made on their first request and put away when idle (serve --idle-ms above 0). */
  lazy: boolean;
  /** A request for the partner came to this instance, which should run it. */
  wanted: boolean;
}

/** `take` when this instance owns a partner that should run, `orphan` when no live instance runs it, else `wait`. */
export function followingStep(view: FollowingView): 'take' | 'orphan' | 'notTaken' | 'wait' {
  if (!view.selfLive) return 'wait';
  const putAway = view.row?.instanceId === '';
  const shouldRun = !view.lazy || view.wanted || (view.row !== undefined && !putAway);
  if (view.owner === view.self) return shouldRun ? 'take' : 'wait';
  // A partner put away, or never run, waits for its first request when partners are made lazily.
  if (view.lazy && (view.row === undefined || putAway)) return 'wait';
  // This instance handed the partner over, and the owner has not taken it (yet: it may be slow to make it).
  if (view.row?.instanceId === view.self) return 'notTaken';
  const orphan = view.row === undefined || putAway || !view.rowLive;
  return orphan ? 'orphan' : 'wait';
}

export interface LeadingView {
  self: string;
  owner: string | undefined;
  /** Whether the owner has been live long enough to be given partners (STABLE_MS). */
  ownerStable: boolean;
  /** Whether a hand-over is allowed now (not in the back-off after an orphan was taken back). */
  handOverAllowed: boolean;
  /** Put away when idle: how long no request came, and the idle time allowed (0: never put away). */
  idleForMs: number;
  idleMs: number;
  /** Why the sandbox cannot be put away now (refunds pending, deliveries under way …), or undefined. */
  busy: string | undefined;
}

/** A leading slot: `handOver` to the owner, `putAway` (idle), or `keep`. */
export function leadingStep(view: LeadingView): 'handOver' | 'putAway' | 'keep' {
  if (view.owner !== undefined && view.owner !== view.self && view.ownerStable && view.handOverAllowed) return 'handOver';
  if (view.idleMs > 0 && view.idleForMs >= view.idleMs && view.busy === undefined) return 'putAway';
  return 'keep';
}
