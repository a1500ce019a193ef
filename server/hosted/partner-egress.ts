/**
 * Pure: a partner's `egress` in the partners file, checked (every rule an origin, every network a CIDR), and the
 * policy built from it (egress/egress-policy.ts). The partner's posOrderUrl, and the sandbox's --pos-order-url that
 * stands for it, are the operator's own words: their origins are allowed without being listed.
 */
import { networkProblem, parseOriginRule, partnerEgress, type EgressPolicy } from './egress-policy.js';

/** Every problem of an entry's egress, each at its place (`partners[1].egress.allow[0]: …`). */
export function egressProblems(where: string, egress: { allow?: readonly string[]; allowNetworks?: readonly string[] } | undefined, posOrderUrl: string | undefined): string[] {
  const problems: string[] = [];
  if (posOrderUrl !== undefined && !URL.canParse(posOrderUrl)) problems.push(`${where}.posOrderUrl '${posOrderUrl}' is not a URL`);
  (egress?.allow ?? []).forEach((rule, at) => {
    const parsed = parseOriginRule(rule);
    if (typeof parsed === 'string') problems.push(`${where}.egress.allow[${at}]: ${parsed}`);
  });
  (egress?.allowNetworks ?? []).forEach((network, at) => {
    const problem = networkProblem(network);
    if (problem !== undefined) problems.push(`${where}.egress.allowNetworks[${at}]: ${problem}`);
  });
  return problems;
}

/** The policy of a hosted partner: its allowed origins, plus those of the order URLs the operator gave. */
export function hostedEgress(partner: string, egress: { allow: readonly string[]; allowNetworks: readonly string[] }, orderUrls: ReadonlyArray<string | undefined>): EgressPolicy {
  const implied = orderUrls.filter((url): url is string => url !== undefined).map((url) => new URL(url).origin);
  return partnerEgress(partner, [...new Set([...egress.allow, ...implied])], egress.allowNetworks);
}
