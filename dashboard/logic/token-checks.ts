/** Pure: the §5 checks of an entry's token, each ticked or explained; those after the first broken part were not made. */
import type { JournalEntry } from './types.js';

export type CheckVerdict = 'pass' | 'fail' | 'not-judged';

export interface TokenCheck {
  rule: string;
  verdict: CheckVerdict;
  details: string[];
}

export const TOKEN_RULES = ['format', 'alg', 'payload', 'signature', 'sub', 'jti', 'iss', 'aud', 'nbf', 'exp'] as const;
const STRUCTURE = new Set(['format', 'alg', 'payload', 'signature']);

/** The rule a defect's part belongs to: the Authorization header and the query string are the token's format. */
const ruleOf = (part: string): string => (part === 'authorization' || part === 'query' ? 'format' : part);

/** undefined for a delivery to the POS (its token is the sandbox's own) or a call that sent no token and was not refused for it. */
export function tokenChecks(entry: Pick<JournalEntry, 'direction' | 'token' | 'tokenDefects'>): TokenCheck[] | undefined {
  if (entry.direction === 'outbound') return undefined;
  const defects = entry.tokenDefects ?? [];
  if (entry.token === undefined && defects.length === 0) return undefined;
  const failed = new Map<string, string[]>();
  for (const defect of defects) failed.set(ruleOf(defect.part), [...(failed.get(ruleOf(defect.part)) ?? []), defect.message]);
  const stoppedAt = TOKEN_RULES.find((rule) => STRUCTURE.has(rule) && failed.has(rule));
  const claims = entry.token?.claims ?? {};
  return TOKEN_RULES.map((rule, index): TokenCheck => {
    const messages = failed.get(rule);
    if (messages) return { rule, verdict: 'fail', details: messages };
    if (stoppedAt !== undefined && index > TOKEN_RULES.indexOf(stoppedAt)) {
      return { rule, verdict: 'not-judged', details: [`not checked: the sandbox stops at the first broken part of a token (${stoppedAt})`] };
    }
    return { rule, verdict: 'pass', details: [passDetail(rule, entry.token?.header ?? {}, claims)] };
  });
}

function passDetail(rule: string, header: Record<string, unknown>, claims: Record<string, unknown>): string {
  if (rule === 'format') return 'Bearer <JWT>, three base64url parts';
  if (rule === 'alg') return `alg ${JSON.stringify(header.alg)}`;
  if (rule === 'payload') return 'a JSON object';
  if (rule === 'signature') return "verifies with the partner's non-prod key";
  const value = claims[rule];
  if ((rule === 'nbf' || rule === 'exp') && typeof value === 'number') {
    const time = new Date(value * 1000);
    return `${rule} ${value}${Number.isNaN(time.getTime()) ? '' : ` (${time.toISOString().replace('.000Z', 'Z')})`}`;
  }
  return `${rule} ${JSON.stringify(value)}`;
}
