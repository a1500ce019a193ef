/** Pure: a token judged rule by rule (the token debugger, POST /_sandbox/tokens/check), with the POS API's own answer, and the claims a 401 would not reach. */
import { lifetimeFindings, finding, type Finding } from '../http/findings.js';
import {
  CLOCK_TOLERANCE_S,
  SERVICE_AUDIENCE,
  checkAuthorizationHeader,
  claimDefects,
  isoTime,
  type PosTokenContext,
  type TokenDefect,
  type TokenPart,
} from './pos-token-rules.js';
import { renderEnvelope, type ErrorEnvelope } from '../errors.js';
import { decodeJsonPart } from '../http/json-text.js';

/** One §5 rule: passed, failed (with every reason), or not judged (with why not). */
export interface TokenRuleVerdict {
  rule: TokenRule;
  /** What the rule asks, in a few words. */
  asks: string;
  verdict: 'pass' | 'fail' | 'not-judged';
  /** pass: what was seen; fail: every defect's message; not-judged: why. */
  details: string[];
}

export type TokenRule = 'format' | 'alg' | 'payload' | 'signature' | 'sub' | 'jti' | 'iss' | 'aud' | 'nbf' | 'exp';

export interface TokenExplanation {
  /** What the POS API does with a call carrying this token: authenticates it, or answers 401 with this body. */
  answer: { authenticated: true } | { authenticated: false; status: 401; body: ErrorEnvelope };
  /** The decoded parts, when they decode: never the signature. */
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  rules: TokenRuleVerdict[];
  /** What an authenticated call would still be told (findings never refuse a call unless --strict). */
  findings: Finding[];
}

export interface ExplainContext extends Omit<PosTokenContext, 'reads'> {
  /** Whether another token already carried this jti; read, never recorded (the debugger uses no jti). */
  jtiUsedByAnother: (jti: string, token: string) => boolean;
}

const ASKS: Record<TokenRule, string> = {
  format: 'a JWT: three base64url parts, header.payload.signature, sent as Authorization: Bearer <JWT>',
  alg: 'header alg is HS256, and no crit',
  payload: 'the payload is a JSON object',
  signature: "signed with this partner's non-prod key",
  sub: 'sub: the location identifier, a non-empty string',
  jti: 'jti: a unique identifier for each token, a non-empty string',
  iss: 'iss: the POS name',
  aud: `aud: '${SERVICE_AUDIENCE}'`,
  nbf: `nbf: not-before, whole seconds since the Unix epoch, not after the sandbox's clock (${CLOCK_TOLERANCE_S} s tolerance)`,
  exp: `exp: expiry, whole seconds since the Unix epoch, after nbf and not before the sandbox's clock (${CLOCK_TOLERANCE_S} s tolerance)`,
};
const RULES = Object.keys(ASKS) as TokenRule[];
const STRUCTURE: ReadonlySet<TokenRule> = new Set(['format', 'alg', 'payload', 'signature']);
const CLAIMS = ['sub', 'jti', 'iss', 'aud', 'nbf', 'exp'] as const;

/** `value` is an Authorization header value or a bare JWT (as pasted from a log). */
export function explainPosToken(value: string, context: ExplainContext): TokenExplanation {
  const trimmed = value.trim();
  const header = /^bearer\s/i.test(trimmed) || trimmed === '' ? trimmed : `Bearer ${trimmed}`;
  const check = checkAuthorizationHeader(header, context);
  const token = header.replace(/^bearer\s+/i, '').trim();
  const [headerPart = '', payloadPart = ''] = token.split('.');
  const decodedHeader = decodeJsonPart(headerPart);
  const claims = token.split('.').length === 3 ? decodeJsonPart(payloadPart) : undefined;
  const answer: TokenExplanation['answer'] = check.ok
    ? { authenticated: true }
    : { authenticated: false, status: 401, body: renderEnvelope('order', 'UNAUTHORIZED', check.defects.map((defect) => defect.message)) };

  // The API's own defects, plus the claims judged even when the structure stopped it.
  const defects: TokenDefect[] = check.ok ? [] : [...check.defects];
  const stoppedAt = check.ok ? [] : check.defects.map((defect) => ruleOf(defect.part)).filter((rule) => STRUCTURE.has(rule));
  if (stoppedAt.length > 0 && !stoppedAt.includes('format')) {
    if (claims !== undefined) defects.push(...claimDefects(claims, context));
    else if (!stoppedAt.includes('payload')) defects.push({ part: 'payload', message: 'token payload is not a base64url-encoded JSON object' });
  }

  const rules = RULES.map((rule): TokenRuleVerdict => {
    const failed = defects.filter((defect) => ruleOf(defect.part) === rule).map((defect) => defect.message);
    if (failed.length > 0) return { rule, asks: ASKS[rule], verdict: 'fail', details: failed };
    const notJudged = whyNotJudged(rule, defects, claims);
    if (notJudged !== undefined) return { rule, asks: ASKS[rule], verdict: 'not-judged', details: [notJudged] };
    return { rule, asks: ASKS[rule], verdict: 'pass', details: [passDetail(rule, decodedHeader, claims, context)] };
  });

  const findings: Finding[] = [];
  if (check.ok) {
    const { claims: good } = check.token;
    findings.push(...lifetimeFindings(good.nbf, good.exp));
    if (context.jtiUsedByAnother(good.jti, token)) {
      findings.push(finding('JTI_REUSED', `jti '${good.jti}' was already used by a different token; every token needs its own jti`));
    }
  }
  return {
    answer,
    ...(decodedHeader === undefined ? {} : { header: decodedHeader }),
    ...(claims === undefined ? {} : { claims }),
    rules,
    findings,
  };
}

/** The query-string part never comes from a token; `authorization` is the token's format. */
function ruleOf(part: TokenPart): TokenRule {
  return part === 'authorization' || part === 'query' ? 'format' : part;
}

function whyNotJudged(rule: TokenRule, defects: TokenDefect[], claims: Record<string, unknown> | undefined): string | undefined {
  const failed = new Set(defects.map((defect) => ruleOf(defect.part)));
  if (rule === 'format') return undefined;
  if (failed.has('format')) return 'not judged: the token is not a readable JWT';
  if (rule === 'signature' && (failed.has('alg') || failed.has('payload'))) {
    return `not judged: the sandbox checks the signature only of an HS256 token with a readable payload`;
  }
  if ((CLAIMS as readonly string[]).includes(rule) && claims === undefined) return 'not judged: the payload is not a JSON object';
  return undefined;
}

function passDetail(rule: TokenRule, header: Record<string, unknown> | undefined, claims: Record<string, unknown> | undefined, context: ExplainContext): string {
  const claim = (name: string) => JSON.stringify(claims?.[name]);
  switch (rule) {
    case 'format':
      return 'three base64url parts, header and payload JSON';
    case 'alg':
      return `alg ${JSON.stringify(header?.alg)}`;
    case 'payload':
      return 'a JSON object';
    case 'signature':
      return `verifies with the non-prod key of POS '${context.posName}'`;
    case 'nbf':
    case 'exp': {
      const seconds = claims?.[rule] as number;
      const delta = seconds - context.nowSeconds;
      const when = delta >= 0 ? `${delta} s after` : `${-delta} s before`;
      return `${rule} ${seconds} (${isoTime(seconds)}), ${when} the sandbox's clock`;
    }
    default:
      return `${rule} ${claim(rule)}`;
  }
}
