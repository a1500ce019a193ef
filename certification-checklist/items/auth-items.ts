/** AUTH: the tokens the POS sends (§5), every one of them, accepted or refused; and how it treats the tokens it receives. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import { lifetimeFindings, migrationHeaderFindings } from '../../server/http/findings.js';
import { CLOCK_TOLERANCE_S, SERVICE_AUDIENCE, type TokenPart } from '../../server/tokens/pos-token-rules.js';
import { isCredentialParameter } from '../../server/tokens/authenticate.js';
import type { ChecklistItem, Traffic, Verdict } from '../checklist-types.js';
import { claimsOf, countOf, findingMessage, isStatusCall, namedExternalId, posCalls, succeeded } from '../traffic.js';
import { blocked, fail, pass, warn } from '../verdicts.js';
import { asPartnerMismatch, refusedGoodToken } from '../partner-mismatch.js';

/** Every call of the run, a fault's answer or not: a token minted wrong only on the retry path is refused the day the service really fails. */
function judgeCalls(traffic: Traffic, judge: (calls: JournalEntry[]) => Verdict): Verdict {
  const calls = posCalls(traffic);
  if (calls.length === 0) return blocked('the POS made no call to the sandbox during the run, so there is no token to judge');
  return judge(calls);
}

/** The verdict over the calls that break a rule: none → pass, else `verdict` with the first one's reason. */
function judgeEach(traffic: Traffic, rule: string, why: (entry: JournalEntry) => string | undefined, verdict = fail): Verdict {
  return judgeCalls(traffic, (calls) => judgeList(calls, rule, why, verdict));
}

function judgeList(calls: JournalEntry[], rule: string, why: (entry: JournalEntry) => string | undefined, verdict = fail): Verdict {
  const broken = calls.filter((entry) => why(entry) !== undefined);
  if (broken.length === 0) return pass(`${rule}: all ${calls.length} calls`, calls);
  return verdict(`${countOf(broken.length, calls.length)} broke the rule; ${broken[0]!.method} ${broken[0]!.path} (${broken[0]!.id}): ${why(broken[0]!)}`, broken);
}

/** A call without a readable token is AUTH-01's failure; when no call had one, this item is its knock-on. */
function judgeClaims(traffic: Traffic, rule: string, why: (entry: JournalEntry, claims: Record<string, unknown>) => string | undefined, verdict = fail): Verdict {
  return judgeCalls(traffic, (calls) => withClaims(calls, (readable) => judgeList(readable, rule, (entry) => why(entry, claimsOf(entry)!), verdict)));
}

/** `judge` over the calls whose token claims could be read; a knock-on of AUTH-01 when none could. */
function withClaims(calls: JournalEntry[], judge: (readable: JournalEntry[]) => Verdict): Verdict {
  const readable = calls.filter((entry) => claimsOf(entry) !== undefined);
  if (readable.length > 0) return judge(readable);
  return { ...blocked(`none of the ${countOf(calls.length, calls.length)} carried a token whose claims could be read`, calls), blockedBy: 'AUTH-01' };
}

/** How many of the calls a fault rule answered, whose signature the sandbox never checked: AUTH-01 judged their alg alone. */
function faultedNote(traffic: Traffic): string {
  const faulted = posCalls(traffic).filter((entry) => entry.fault !== undefined).length;
  return faulted === 0 ? '' : `; ${faulted} of the calls were answered by a fault rule, whose signature the sandbox did not check: their alg was`;
}

/** The sandbox's own reason for refusing a token over one of `parts`, when it refused it so. */
const refusedFor = (entry: JournalEntry, ...parts: TokenPart[]): string | undefined => entry.tokenDefects?.find((defect) => parts.includes(defect.part))?.message;

const migrationFinding = (entry: JournalEntry, code: 'API_KEY_HEADER_MISSING' | 'VERSION_HEADER_MISSING'): string | undefined =>
  findingMessage([{ ...entry, findings: migrationHeaderFindings(entry.request.headers) }], code);

const str = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

/** Whole seconds since the epoch; a value over 10^11 is a time in milliseconds (year 5138 in seconds). */
function timeProblem(name: string, value: unknown): string | undefined {
  if (!Number.isInteger(value)) return `${name} is ${str(value)}; it must be whole seconds since the epoch`;
  if ((value as number) > 1e11) return `${name} is ${String(value)}, which is milliseconds; §5 wants seconds since the epoch`;
  return undefined;
}

/** An order delivered with a spoiled token must get 401 and create nothing (`kind` is the outbound fault). */
function judgeForged(traffic: Traffic, kind: string, defect: string): Verdict {
  const forged = traffic.entries.filter((entry) => entry.direction === 'outbound' && entry.fault?.kind === kind);
  if (forged.length === 0) return blocked(`no order was delivered with ${defect}: the fault did not fire, or the order was never delivered`);
  const accepted = forged.filter(succeeded);
  if (accepted.length > 0) {
    return fail(`the POS accepted an order delivered with ${defect} (answered ${accepted[0]!.response.status}); anyone could have sent it`, accepted);
  }
  const unanswered = forged.filter((entry) => entry.response.status === 0);
  if (unanswered.length === forged.length) return blocked(`the POS never answered the delivery with ${defect}: ${unanswered[0]!.response.error ?? 'no answer'}`, forged);
  // A status call about this order between the refused try and the clean retry means the POS booked it anyway.
  const orderId = forged[0]!.orderId;
  const refusedAt = Date.parse(forged[0]!.time);
  const retry = traffic.entries.find((entry) => entry.direction === 'outbound' && entry.fault === undefined && entry.orderId === orderId && Date.parse(entry.time) > refusedAt);
  const retryExternalId = (retry?.response.body as { ExternalId?: unknown } | undefined)?.ExternalId;
  const aboutIt = (entry: JournalEntry) =>
    entry.orderId === orderId || (entry.orderId === undefined && retryExternalId !== undefined && namedExternalId(entry) === retryExternalId);
  const acted = traffic.entries.find((entry) => isStatusCall(entry) && aboutIt(entry) && Date.parse(entry.time) >= refusedAt && (!retry || Date.parse(entry.time) < Date.parse(retry.time)));
  if (acted) {
    return fail(
      `the POS refused the order with ${defect} (${forged[0]!.response.status}), yet sent ${acted.method} ${acted.path} (${acted.id}) about it ${Date.parse(acted.time) - refusedAt} ms later, before the clean retry: it booked the order it refused`,
      [...forged, acted],
    );
  }
  // A POS that refuses the clean retry the same way refuses every token: its refusal of the spoiled one shows nothing.
  if (retry && !succeeded(retry) && retry.response.status === forged[0]!.response.status) {
    const said = blocked(
      `the POS refused the order with ${defect} (${forged[0]!.response.status}, ${forged[0]!.id}), but refused its clean retry too (${retry.response.status}, ${retry.id}), whose token was good: a POS that refuses the sandbox's good tokens cannot be judged on how it treats bad ones`,
      [...forged, retry],
    );
    return refusedGoodToken(retry) ? { ...said, blockedBy: 'ORDER-01' } : said;
  }
  const other = forged.filter((entry) => entry.response.status !== 401 && entry.response.status !== 0);
  if (other.length > 0) {
    return warn(`the POS refused the order with ${defect}, but with ${other[0]!.response.status}; 401 tells the service the token was the problem`, forged);
  }
  return pass(`the POS refused the order with ${defect} with 401 and created nothing from it`, forged);
}

export const AUTH_ITEMS: ChecklistItem[] = [
  {
    id: 'AUTH-01',
    title: 'Tokens are HS256, signed with the non-prod key',
    section: '§5 (1–3)',
    category: 'AUTH',
    required: true,
    remediation: 'Sign every token with HS256 and the non-prod key from onboarding (SANDBOX_NONPROD_KEY); never another partner’s, a production or a mistyped key, and never alg none or RS256.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const verdict = judgeEach(traffic, 'HS256 signed with the non-prod key', (entry) => {
        const refused = refusedFor(entry, 'authorization', 'alg', 'payload', 'signature');
        if (refused) return refused;
        if (!entry.token) return 'no Bearer token';
        if (entry.token.unreadable) return `the token is ${entry.token.unreadable}`;
        if (entry.token.header?.alg !== 'HS256') return `alg is ${str(entry.token.header?.alg)}`;
        return undefined;
      });
      return asPartnerMismatch(traffic, verdict.status === 'blocked' ? verdict : { ...verdict, message: `${verdict.message}${faultedNote(traffic)}` });
    },
  },
  {
    id: 'AUTH-02',
    title: `Tokens carry aud ${SERVICE_AUDIENCE}`,
    section: '§5 (4, claims table)',
    category: 'AUTH',
    required: true,
    remediation: `Set aud to exactly "${SERVICE_AUDIENCE}" on every token the POS sends to the service.`,
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => judgeClaims(traffic, `aud is ${SERVICE_AUDIENCE}`, (entry, claims) => refusedFor(entry, 'aud') ?? (claims.aud === SERVICE_AUDIENCE ? undefined : `aud is ${str(claims.aud)}`)),
  },
  {
    id: 'AUTH-03',
    title: 'Tokens carry iss = the POS name',
    section: '§5 (claims table)',
    category: 'AUTH',
    required: true,
    remediation: 'Set iss to the POS name the service gave the partner at onboarding (the sandbox’s partner name).',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const posName = traffic.asked.posName;
      return asPartnerMismatch(
        traffic,
        judgeClaims(traffic, `iss is ${String(posName)}`, (entry, claims) => refusedFor(entry, 'iss') ?? (claims.iss === posName ? undefined : `iss is ${str(claims.iss)}, not ${str(posName)}`)),
      );
    },
  },
  {
    id: 'AUTH-04',
    title: 'Tokens carry sub = the location of the call',
    section: '§5 (claims table)',
    category: 'AUTH',
    required: true,
    remediation: 'Set sub to the location identifier the call is for, the same value as the x-service-locationid header.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) =>
      judgeClaims(traffic, "sub is the call's x-service-locationid, where the call carried one", (entry, claims) => {
        const refused = refusedFor(entry, 'sub');
        if (refused) return refused;
        const sub = claims.sub;
        if (typeof sub !== 'string' || sub === '') return `sub is ${str(sub)}`;
        return entry.locationId === undefined || sub === entry.locationId ? undefined : `sub is ${str(sub)} but x-service-locationid is ${str(entry.locationId)}`;
      }),
  },
  {
    id: 'AUTH-05',
    title: 'Every token has its own jti',
    section: '§5 (claims table)',
    category: 'AUTH',
    required: true,
    remediation: 'Mint a new token with a fresh random jti (a UUID) for each call; never reuse a jti across tokens.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) =>
      judgeCalls(traffic, (all) =>
        withClaims(all, (calls) => {
          const tokensByJti = new Map<string, Set<string>>();
          const missing = calls.filter((entry) => typeof claimsOf(entry)?.jti !== 'string' || claimsOf(entry)?.jti === '');
          if (missing.length > 0) return fail(`${countOf(missing.length, calls.length)} carried no jti`, missing);
          for (const entry of calls) {
            const jti = claimsOf(entry)!.jti as string;
            tokensByJti.set(jti, (tokensByJti.get(jti) ?? new Set()).add(entry.token!.sha256));
          }
          const reused = [...tokensByJti].filter(([, tokens]) => tokens.size > 1);
          const distinct = new Set(calls.map((entry) => entry.token!.sha256)).size;
          // One token shows nothing about uniqueness: a POS with a constant jti would pass on it.
          if (distinct < 2) return blocked(`only 1 token was seen (${countOf(calls.length, calls.length)}); whether each token gets its own jti needs at least two`, calls);
          if (reused.length === 0) return pass(`${tokensByJti.size} tokens, each with its own jti`, calls);
          const [jti, tokens] = reused[0]!;
          const shown = calls.filter((entry) => claimsOf(entry)?.jti === jti);
          return fail(`jti ${str(jti)} was used by ${tokens.size} different tokens${findingMessage(calls, 'JTI_REUSED') ? ' (finding JTI_REUSED)' : ''}`, shown);
        }),
      ),
  },
  {
    id: 'AUTH-06',
    title: 'nbf and exp are present, whole seconds, and a short lifetime',
    section: '§5 (claims table)',
    category: 'AUTH',
    required: true,
    remediation: 'Set nbf to now and exp a few minutes later, both as whole seconds since the epoch; keep tokens at most an hour long and mint a new one per call.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => {
      const broken = judgeClaims(traffic, 'nbf and exp are whole seconds with exp after nbf', (entry, { nbf, exp }) => {
        const refused = refusedFor(entry, 'nbf', 'exp');
        if (refused) return refused;
        const unit = timeProblem('nbf', nbf) ?? timeProblem('exp', exp);
        if (unit) return unit;
        if ((exp as number) <= (nbf as number)) return `exp ${String(exp)} is not after nbf ${String(nbf)}`;
        const sentAt = Math.floor(Date.parse(entry.time) / 1000);
        if ((exp as number) < sentAt - CLOCK_TOLERANCE_S) return `the token had expired when it was sent (exp ${String(exp)}, sent at ${sentAt})`;
        // A call a fault answered was never judged by the sandbox: its clock is judged here, so the count is over every call.
        if ((nbf as number) > sentAt + CLOCK_TOLERANCE_S) return `the token was not valid yet when it was sent (nbf ${String(nbf)}, ${(nbf as number) - sentAt} s after it was sent at ${sentAt}, beyond the ${CLOCK_TOLERANCE_S} s tolerance); check the POS clock`;
        return undefined;
      });
      if (broken.status !== 'pass') return broken;
      return judgeClaims(traffic, 'nbf and exp are whole seconds, lifetimes at most an hour', (_entry, { nbf, exp }) => lifetimeFindings(nbf as number, exp as number)[0]?.message, warn);
    },
  },
  {
    id: 'AUTH-07',
    title: 'No key or token in a query string',
    section: '§5 (migration notes)',
    category: 'AUTH',
    required: true,
    remediation: 'Send the token only in the Authorization header; remove every key or token query parameter left from v1 (proxies and logs keep URLs).',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) =>
      judgeEach(traffic, 'no credential in the query string', (entry) => {
        const refused = refusedFor(entry, 'query');
        if (refused) return refused;
        // The partner key is not known here: a parameter is judged by its name or its JWT shape.
        const carrying = Object.entries(entry.query).find(([name, value]) => isCredentialParameter(name, value, '\u0000'));
        return carrying ? `query parameter '${carrying[0]}' carries a credential` : undefined;
      }),
  },
  {
    id: 'AUTH-08',
    title: 'Calls carry x-api-key',
    section: '§5 (migration notes)',
    category: 'AUTH',
    required: true,
    remediation: 'Send the x-api-key header on every call, as the v2 migration notes ask (warn level: the notes do not say how it combines with the token).',
    step: 'all-traffic',
    passive: true,
    // From the headers themselves: a call refused before the sandbox noted them still shows whether they were sent.
    judge: (traffic) => judgeEach(traffic, 'x-api-key sent', (entry) => migrationFinding(entry, 'API_KEY_HEADER_MISSING'), warn),
  },
  {
    id: 'AUTH-09',
    title: 'Calls carry a version header',
    section: '§5 (migration notes)',
    category: 'AUTH',
    required: true,
    remediation: 'Send a version header (x-api-version: 2) on every call, as the v2 migration notes ask (warn level: its name and value are not shown).',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => judgeEach(traffic, 'a version header sent', (entry) => migrationFinding(entry, 'VERSION_HEADER_MISSING'), warn),
  },
  {
    id: 'AUTH-10',
    title: 'An order whose token has a bad signature is refused and creates nothing',
    section: '§5 (2)',
    category: 'AUTH',
    required: true,
    remediation: 'Verify the signature of the service’s token with the partner key (HS256) before reading the order; answer 401 and create nothing when it does not verify.',
    step: 'forged-bad-signature',
    passive: true,
    judge: (traffic) => judgeForged(traffic, 'bad-signature', 'a token with a bad signature'),
  },
  {
    id: 'AUTH-11',
    title: 'An order whose token has expired is refused and creates nothing',
    section: '§5 (claims table)',
    category: 'AUTH',
    required: true,
    remediation: 'Check exp (and nbf) of the service’s token, with at most a minute of clock tolerance; answer 401 and create nothing when it has expired.',
    step: 'forged-expired-token',
    passive: true,
    judge: (traffic) => judgeForged(traffic, 'expired-token', 'an expired token'),
  },
  {
    id: 'AUTH-12',
    title: 'An order whose token is for another audience is refused and creates nothing',
    section: '§5 (direction table)',
    category: 'AUTH',
    required: true,
    remediation: 'Check that the service’s token has aud = your POS name and iss = io.service.pos.brokers.openapi; answer 401 and create nothing otherwise.',
    step: 'forged-wrong-audience',
    passive: true,
    judge: (traffic) => judgeForged(traffic, 'wrong-audience', 'a token for another audience'),
  },
];
