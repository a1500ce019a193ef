/**
 * Pure: which live instance should lead a partner. Rendezvous (highest random weight) hashing: each instance scores
 * every partner by a hash of the pair, and the highest score owns it. Every instance computes the same owner from
 * the same list, with no coordination; an instance that joins takes about 1/N of the partners, each from the instance
 * that had it, and moves none between the others; one that leaves gives up only its own.
 */
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
