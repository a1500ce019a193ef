/** The §5 rules of a POS → service token: a pure check that names every defect, so the message alone tells how to fix the token. */
import { createHash, type KeyObject, createHmac, timingSafeEqual } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describeValue as describe } from '../http/messages.js';
import { decodeJsonPart } from '../http/json-text.js';

/** aud of every POS → service token, iss of every service → POS token (§5). */
export const SERVICE_AUDIENCE = 'io.service.pos.brokers.openapi';
/** Clock skew allowed on nbf and exp. */
export const CLOCK_TOLERANCE_S = 60;

export interface PosTokenClaims {
  sub: string;
  jti: string;
  nbf: number;
  exp: number;
  iss: string;
  aud: string;
  [other: string]: unknown;
}

export interface VerifiedPosToken {
  header: Record<string, unknown>;
  claims: PosTokenClaims;
  /** sha256 of the whole token: tells two tokens apart without keeping either. */
  sha256: string;
}

/** Which part of the call a token defect is about: the checklist names the rule (and its item) by it. */
export const TOKEN_PARTS = ['authorization', 'alg', 'payload', 'signature', 'sub', 'jti', 'nbf', 'exp', 'iss', 'aud', 'query'] as const;
export type TokenPart = (typeof TOKEN_PARTS)[number];

/** One reason a token is refused: the part it is about, and the message the 401 carries. */
export interface TokenDefect {
  part: TokenPart;
  message: string;
}

export type PosTokenCheck = { ok: true; token: VerifiedPosToken } | { ok: false; defects: TokenDefect[] };

export interface PosTokenContext {
  key: KeyObject;
  posName: string;
  nowSeconds: number;
  /** Where the time-independent part of each check is remembered; every check is made in full without it. */
  reads?: TokenReads;
}

const STRING_CLAIMS = ['sub', 'jti', 'iss', 'aud'] as const;
const TIME_CLAIMS = ['nbf', 'exp'] as const;

/** Checks an `Authorization` header value against §5; every defect found is listed. */
export function checkAuthorizationHeader(value: string | undefined, context: PosTokenContext): PosTokenCheck {
  if (value === undefined || value.trim() === '') {
    return fail('authorization', 'Authorization header is missing; send Authorization: Bearer <JWT> signed with the non-prod key (§5)');
  }
  const match = /^(\S+)(?:\s+(.*))?$/.exec(value.trim());
  const scheme = match?.[1] ?? '';
  if (match?.[2] === undefined && scheme.split('.').length === 3) {
    return fail('authorization', "Authorization header holds a bare token; send it as 'Bearer <JWT>' (§5)");
  }
  if (scheme.toLowerCase() !== 'bearer') {
    return fail('authorization', `Authorization header must be 'Bearer <JWT>' (§5), got scheme '${scheme}'`);
  }
  const token = match?.[2]?.trim() ?? '';
  if (token === '') return fail('authorization', "Authorization header is 'Bearer' with no token after it");
  return checkPosToken(token, context);
}

/** Checks a bare JWT against §5: HS256 with the partner's key, the six claims, their types and values. */
export function checkPosToken(token: string, context: PosTokenContext): PosTokenCheck {
  const read = context.reads?.get(token) ?? readPosToken(token, context);
  context.reads?.set(token, read);
  if (!read.ok) return read;
  const defects = claimDefects(read.token.claims, context);
  if (defects.length > 0) return { ok: false, defects };
  return read;
}

/** Every defect of a claim set's six §5 claims: their types, then their values against the POS name and the clock. */
export function claimDefects(claims: Record<string, unknown>, context: Pick<PosTokenContext, 'posName' | 'nowSeconds'>): TokenDefect[] {
  return [...checkClaimTypes(claims), ...checkClaimValues(claims, context)];
}

/** What does not depend on the time, which TokenReads remembers: a POS sends one token for many calls. */
function readPosToken(token: string, context: PosTokenContext): PosTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) {
    return fail('authorization', `token is not a JWT: expected header.payload.signature (three base64url parts separated by dots), got ${parts.length} part(s)`);
  }
  const header = decodeJsonPart(parts[0] ?? '');
  if (header === undefined) return fail('authorization', 'token header is not base64url-encoded JSON: this is not a JWT');
  const algDefect = checkAlgorithm(header.alg);
  if (algDefect) return fail('alg', algDefect);
  const critDefect = checkCritical(header.crit);
  if (critDefect) return fail('alg', critDefect);
  const payload = decodeJsonPart(parts[1] ?? '');
  if (payload === undefined) return fail('payload', 'token payload is not a base64url-encoded JSON object');

  const signatureDefect = checkSignature(token, context);
  if (signatureDefect) return fail('signature', signatureDefect);
  // Frozen: one read is shared by every call that sends the token.
  return {
    ok: true,
    token: Object.freeze({ header: Object.freeze(header), claims: Object.freeze(payload) as PosTokenClaims, sha256: createHash('sha256').update(token).digest('hex') }),
  };
}

/** Bounded in count and in token length, so a new or huge token on every call costs a few MB at most. */
export class TokenReads {
  private readonly reads = new Map<string, PosTokenCheck>();

  constructor(
    private readonly most = 256,
    private readonly longestToken = 4096,
  ) {}

  get(token: string): PosTokenCheck | undefined {
    return this.reads.get(token);
  }

  set(token: string, read: PosTokenCheck): void {
    if (token.length > this.longestToken || this.reads.has(token)) return;
    if (this.reads.size >= this.most) this.reads.delete(this.reads.keys().next().value as string);
    if (!read.ok) for (const defect of Object.freeze(read.defects)) Object.freeze(defect);
    this.reads.set(token, Object.freeze(read));
  }

  get size(): number {
    return this.reads.size;
  }
}

function checkAlgorithm(alg: unknown): string | undefined {
  if (alg === 'HS256') return undefined;
  if (alg === undefined) return 'token header has no alg; sign the token with HS256 (§5)';
  // Only a string is printed: an object's toString belongs to whoever built the token (and may not be callable).
  if (typeof alg !== 'string') return `token alg must be the string 'HS256' (§5), got ${describe(alg).split(' ')[0]}`;
  if (alg.toLowerCase() === 'none') {
    return "token alg is 'none' (an unsigned token); only HS256 signed with the partner's non-prod key is accepted (§5)";
  }
  const hint = /^(RS|PS|ES)/i.test(alg)
    ? "; the non-prod key is a shared HMAC secret, not a public/private key pair"
    : '';
  return `token alg is '${alg}'; only HS256 is accepted (§5)${hint}`;
}

/** RFC 7515 §4.1.11: a `crit` the recipient does not understand must be refused; the service understands none (jsonwebtoken ignores it). */
function checkCritical(crit: unknown): string | undefined {
  if (crit === undefined) return undefined;
  const names = Array.isArray(crit) && crit.length > 0 && crit.every((name) => typeof name === 'string') ? (crit as string[]) : undefined;
  if (names === undefined) return `token header crit must be a non-empty array of extension names (RFC 7515 §4.1.11), got ${describe(crit)}; leave it out`;
  const listed = names.map((name) => `'${name}'`).join(', ');
  const those = names.length === 1 ? 'an extension' : 'extensions';
  return `token header crit names ${listed}, ${those} the service does not understand; a token must not require extensions (RFC 7515 §4.1.11)`;
}

function checkSignature(token: string, { key, posName }: PosTokenContext): string | undefined {
  if (hs256SignatureMatches(token, key)) return undefined;
  try {
    // Expiry and nbf are checked below with our own clock and messages, so jsonwebtoken only checks the signature.
    jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason === 'invalid signature') {
      return `token signature does not verify with the non-prod key of POS '${posName}': it was signed with another key (a production key, another partner's, or a mistyped one?)`;
    }
    return `token could not be verified: ${reason}`;
  }
}

function checkClaimTypes(payload: Record<string, unknown>): TokenDefect[] {
  const defects: TokenDefect[] = [];
  for (const claim of STRING_CLAIMS) {
    const value = payload[claim];
    if (value === undefined) defects.push({ part: claim, message: `token claim ${claim} is missing (${CLAIM_MEANING[claim]}, §5)` });
    else if (typeof value !== 'string') defects.push({ part: claim, message: `token claim ${claim} must be a string, got ${describe(value)}` });
    else if (value.trim() === '') defects.push({ part: claim, message: `token claim ${claim} must not be empty` });
  }
  for (const claim of TIME_CLAIMS) {
    const value = payload[claim];
    if (value === undefined) defects.push({ part: claim, message: `token claim ${claim} is missing (${CLAIM_MEANING[claim]}, §5)` });
    else if (typeof value !== 'number' || !Number.isInteger(value)) {
      defects.push({ part: claim, message: `token claim ${claim} must be an integer number of seconds since the Unix epoch, got ${describe(value)}` });
    } else if (value > 1e11) {
      defects.push({ part: claim, message: `token claim ${claim} is ${value}, which looks like milliseconds; §5 wants seconds since the Unix epoch` });
    }
  }
  return defects;
}

function checkClaimValues(payload: Record<string, unknown>, { posName, nowSeconds }: Pick<PosTokenContext, 'posName' | 'nowSeconds'>): TokenDefect[] {
  const defects: TokenDefect[] = [];
  const { aud, iss, nbf, exp } = payload;
  if (typeof aud === 'string' && aud.trim() !== '' && aud !== SERVICE_AUDIENCE) {
    const hint = aud === posName ? " (that is the service → POS direction)" : '';
    defects.push({ part: 'aud', message: `token aud is '${aud}' but must be '${SERVICE_AUDIENCE}' for POS → service calls (§5)${hint}` });
  }
  if (typeof iss === 'string' && iss.trim() !== '' && iss !== posName) {
    defects.push({ part: 'iss', message: `token iss is '${iss}' but must be the POS name '${posName}' (§5)` });
  }
  if (isSeconds(nbf) && nbf > nowSeconds + CLOCK_TOLERANCE_S) {
    defects.push({
      part: 'nbf',
      message: `token is not valid yet: nbf is ${isoTime(nbf)}, ${nbf - nowSeconds} s after the sandbox's clock (${isoTime(nowSeconds)}), beyond the ${CLOCK_TOLERANCE_S} s tolerance; check the POS clock`,
    });
  }
  if (isSeconds(exp) && exp + CLOCK_TOLERANCE_S <= nowSeconds) {
    defects.push({
      part: 'exp',
      message: `token expired at ${isoTime(exp)}, ${nowSeconds - exp} s before the sandbox's clock (${isoTime(nowSeconds)}), beyond the ${CLOCK_TOLERANCE_S} s tolerance; mint a fresh token`,
    });
  }
  if (isSeconds(nbf) && isSeconds(exp) && exp <= nbf) {
    defects.push({ part: 'exp', message: `token exp (${isoTime(exp)}) is not after nbf (${isoTime(nbf)}): the token is never valid` });
  }
  return defects;
}

const CLAIM_MEANING: Record<(typeof STRING_CLAIMS)[number] | (typeof TIME_CLAIMS)[number], string> = {
  sub: 'the location identifier',
  jti: 'a unique identifier for each token',
  iss: 'the POS name',
  aud: `'${SERVICE_AUDIENCE}'`,
  nbf: 'not-before, seconds since the Unix epoch',
  exp: 'expiry, seconds since the Unix epoch',
};

function fail(part: TokenPart, message: string): PosTokenCheck {
  return { ok: false, defects: [{ part, message }] };
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value <= 1e11;
}

export function isoTime(seconds: number): string {
  const time = new Date(seconds * 1000);
  // Beyond ±273,790 years a Date has no ISO form (toISOString throws): the number is shown as it was sent.
  return Number.isNaN(time.getTime()) ? `${seconds} s after the Unix epoch` : time.toISOString().replace('.000Z', 'Z');
}

/** The usual case settled by one HMAC, since jsonwebtoken's verify was the largest cost of a refund; `true` only where it would pass (a property test pins that). */

/** What jsonwebtoken (through jws) takes as a signature: base64url characters, at least one. */
const SIGNATURE = /^[A-Za-z0-9_-]+$/;

/** For a token already split, whose header and payload decoded: checkPosToken calls it only then. */
export function hs256SignatureMatches(token: string, key: KeyObject): boolean {
  const lastDot = token.lastIndexOf('.');
  const signature = token.slice(lastDot + 1);
  if (lastDot < 0 || !SIGNATURE.test(signature)) return false;
  const expected = createHmac('sha256', key).update(token.slice(0, lastDot)).digest('base64url');
  // Compared as text, as jws does: a signature with other trailing bits decodes to the same bytes but is not the same.
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}
