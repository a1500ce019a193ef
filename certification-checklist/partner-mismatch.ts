/**
 * Pure: the traffic of a POS that holds another partner's credentials than the sandbox plays (a CI job whose secrets
 * were set for the POS's step only, say). Its calls carry another POS name and key, and it refuses the sandbox's
 * good tokens: one cause, which AUTH-01, AUTH-03 and ORDER-01 each show, and which has one root.
 */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { Traffic, Verdict } from './checklist-types.js';
import { claimsOf, isDelivery } from './traffic.js';

/** The cause the items that show a partner mismatch share (same-cause.ts): the first of them to fail is its root. */
export const PARTNER_MISMATCH = 'partner-mismatch';

/** Outbound faults that leave the token good: what a POS answers to those tries says how it treats a good token. */
const TOKEN_KEPT = new Set(['duplicate', 'delay']);

/** A delivery try whose token was the sandbox's own good one that the POS refused as unauthorized. */
export const refusedGoodToken = (entry: JournalEntry): boolean =>
  isDelivery(entry) && (entry.fault === undefined || TOKEN_KEPT.has(entry.fault.kind)) && (entry.response.status === 401 || entry.response.status === 403);

export interface PartnerMismatch {
  /** The POS names the POS's tokens carry in `iss`, other than the sandbox's partner. */
  issuers: string[];
  /** Its calls the sandbox refused because their signature does not verify with the partner's key. */
  wrongKey: JournalEntry[];
  /** The deliveries, each with a good token, that the POS refused with 401 or 403. */
  refusedDeliveries: JournalEntry[];
}

/**
 * The mismatch `entries` show, or undefined: the POS's tokens name another POS than `partner` and either do not
 * verify with the partner's key or go with a POS that refuses the partner's tokens. Another name alone, signed with
 * the right key, is a wrong `iss` (AUTH-03's own failure), not another partner.
 */
export function partnerMismatch(entries: readonly JournalEntry[], partner: string): PartnerMismatch | undefined {
  const calls = entries.filter((entry) => entry.direction === 'inbound');
  const issuers = [...new Set(calls.map((entry) => claimsOf(entry)?.iss).filter((iss): iss is string => typeof iss === 'string' && iss !== partner))];
  const wrongKey = calls.filter((entry) => entry.tokenDefects?.some((defect) => defect.part === 'signature'));
  const refusedDeliveries = entries.filter(refusedGoodToken);
  if (issuers.length === 0 || (wrongKey.length === 0 && refusedDeliveries.length === 0)) return undefined;
  return { issuers, wrongKey, refusedDeliveries };
}

/** The mismatch in a sentence, with what to do: the root's message. */
export function mismatchText(mismatch: PartnerMismatch, partner: string): string {
  const names = mismatch.issuers.map((iss) => JSON.stringify(iss)).join(', ');
  const signed = mismatch.wrongKey.length > 0 ? ` and are signed with another key than the non-prod key of ${JSON.stringify(partner)}` : '';
  const refused = mismatch.refusedDeliveries.length > 0 ? `, and it refused ${mismatch.refusedDeliveries.length} order deliver${mismatch.refusedDeliveries.length === 1 ? 'y' : 'ies'} signed with that key (${mismatch.refusedDeliveries[0]!.response.status}, ${mismatch.refusedDeliveries[0]!.id})` : '';
  return (
    `the POS holds another partner's credentials than this sandbox plays: its tokens carry iss ${names}${signed}${refused}; ` +
    `the sandbox plays partner ${JSON.stringify(partner)}. Run the sandbox as the POS's partner (SANDBOX_PARTNER and SANDBOX_NONPROD_KEY set where the sandbox runs, the certify step of a CI job too), or give the POS this partner's name and non-prod key`
  );
}

/**
 * A failure that is one face of a partner mismatch takes its cause, so the first item to show
 * it is the root and the others follow; it says what the mismatch is and what to do, first.
 */
export function asPartnerMismatch(traffic: Traffic, verdict: Verdict): Verdict {
  const partner = traffic.asked.posName;
  if (verdict.status !== 'fail' || typeof partner !== 'string') return verdict;
  const mismatch = partnerMismatch(traffic.entries, partner);
  if (!mismatch) return verdict;
  return { ...verdict, message: `${mismatchText(mismatch, partner)}. ${verdict.message}`, cause: PARTNER_MISMATCH };
}
