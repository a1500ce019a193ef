/** Pure: the traffic of a POS holding another partner's credentials than the sandbox plays: one cause, shown by AUTH-01, AUTH-03 and ORDER-01, with one root. */
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

/** Another name whose tokens do not verify or whose POS refuses the partner's tokens, or another key both ways under the partner's name; another name alone is AUTH-03's, another key one way that way's item's. */
export function partnerMismatch(entries: readonly JournalEntry[], partner: string): PartnerMismatch | undefined {
  const calls = entries.filter((entry) => entry.direction === 'inbound');
  const issuers = [...new Set(calls.map((entry) => claimsOf(entry)?.iss).filter((iss): iss is string => typeof iss === 'string' && iss !== partner))];
  const wrongKey = calls.filter((entry) => entry.tokenDefects?.some((defect) => defect.part === 'signature'));
  const refusedDeliveries = entries.filter(refusedGoodToken);
  const anotherPartner = issuers.length > 0 && (wrongKey.length > 0 || refusedDeliveries.length > 0);
  const anotherKey = wrongKey.length > 0 && refusedDeliveries.length > 0;
  return anotherPartner || anotherKey ? { issuers, wrongKey, refusedDeliveries } : undefined;
}

/** The mismatch in a sentence, with what it shows: the root's message. */
export function mismatchText(mismatch: PartnerMismatch, partner: string): string {
  const key = `the non-prod key of ${JSON.stringify(partner)}`;
  const tries = mismatch.refusedDeliveries.length;
  const refused = tries > 0 ? `it refused ${tries} order delivery ${tries === 1 ? 'try' : 'tries'} whose token the sandbox signed with ${key} (${mismatch.refusedDeliveries[0]!.response.status}, ${mismatch.refusedDeliveries[0]!.id})` : '';
  const signed = mismatch.wrongKey.length > 0 ? `do not verify with ${key} (${mismatch.wrongKey[0]!.id})` : '';
  if (mismatch.issuers.length === 0) return `the POS holds another non-prod key than this sandbox plays partner ${JSON.stringify(partner)} with: its tokens ${signed}, and ${refused}`;
  const names = mismatch.issuers.map((iss) => JSON.stringify(iss)).join(', ');
  return `the POS holds another partner's credentials than this sandbox plays (partner ${JSON.stringify(partner)}): its tokens carry iss ${names}${signed ? ` and ${signed}` : ''}${refused ? `, and ${refused}` : ''}`;
}

/** The fix for a partner mismatch: one partner, one key, on both sides. */
export const MISMATCH_HINT =
  'Run the sandbox as the POS’s partner: set SANDBOX_PARTNER and SANDBOX_NONPROD_KEY where the sandbox runs (in a CI job, on the step that runs pos-sandbox certify too, not only on the POS’s), or give the POS this sandbox’s partner name and non-prod key; one key signs and checks both ways (§5).';

/** A failure that is a face of a partner mismatch takes its cause, rests on the exchanges that show it, and gives its fix. */
export function asPartnerMismatch(traffic: Traffic, verdict: Verdict): Verdict {
  const partner = traffic.asked.posName;
  if (verdict.status !== 'fail' || typeof partner !== 'string') return verdict;
  const mismatch = partnerMismatch(traffic.entries, partner);
  if (!mismatch) return verdict;
  const shown = [mismatch.wrongKey[0]?.id, mismatch.refusedDeliveries[0]?.id].filter((id): id is string => id !== undefined && !verdict.evidence.includes(id));
  return { ...verdict, message: `${mismatchText(mismatch, partner)}; ${verdict.message}`, evidence: [...shown, ...verdict.evidence], cause: PARTNER_MISMATCH, hint: MISMATCH_HINT };
}
