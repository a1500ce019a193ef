/** The §5 authentication stage of every POS → service call. */
import type { KeyObject } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ApiError } from '../errors.js';
import { lifetimeFindings, finding, addFindings } from '../http/findings.js';
import { checkAuthorizationHeader, TokenReads, type TokenDefect } from './pos-token-rules.js';

export interface AuthenticateDeps {
  key: KeyObject;
  posName: string;
  nonProdKey: string;
  clock: () => number;
  jtis: JtiRegistry;
}

export function authenticate({ key, posName, nonProdKey, clock, jtis }: AuthenticateDeps): RequestHandler {
  const reads = new TokenReads();
  return (req, res, next) => {
    // Most calls have no query string: no URL to parse for them.
    if (req.originalUrl.includes('?')) {
      const parameter = findCredentialInQuery(new URL(req.originalUrl, 'http://sandbox.invalid').searchParams, nonProdKey);
      if (parameter !== undefined) refuse(res, [{ part: 'query', message: queryCredentialMessage(parameter) }]);
    }

    const nowSeconds = Math.floor(clock() / 1000);
    const check = checkAuthorizationHeader(req.get('authorization'), { key, posName, nowSeconds, reads });
    if (!check.ok) refuse(res, check.defects);

    const { claims, sha256 } = check.token;
    res.locals.token = check.token;
    addFindings(res, lifetimeFindings(claims.nbf, claims.exp));
    if (jtis.use(claims.jti, sha256) === 'reused') {
      addFindings(res, [finding('JTI_REUSED', `jti '${claims.jti}' was already used by a different token; every token needs its own jti`)]);
    }
    next();
  };
}

/** 401 with every defect's message; the journal keeps which part of the token each is about. */
function refuse(res: Response, defects: TokenDefect[]): never {
  res.locals.tokenDefects = defects;
  throw new ApiError('UNAUTHORIZED', defects.map((defect) => defect.message));
}

/** Remembers which token carried each jti, so one jti on two different tokens is seen (§5: unique per token). */

export type JtiUse = 'first' | 'same-token' | 'reused';

/** Forgets the oldest entries past `capacity`, so a long session does not grow without bound. */
export class JtiRegistry {
  private readonly seen = new Map<string, string>();

  constructor(private readonly capacity = 100_000) {}

  /** Records that `tokenSha256` carried `jti` and says whether another token carried it before. */
  use(jti: string, tokenSha256: string): JtiUse {
    const earlier = this.seen.get(jti);
    if (earlier === undefined) {
      this.seen.set(jti, tokenSha256);
      if (this.seen.size > this.capacity) this.seen.delete(this.seen.keys().next().value as string);
      return 'first';
    }
    return earlier === tokenSha256 ? 'same-token' : 'reused';
  }

  /** Whether a token other than `tokenSha256` carried `jti`, without recording anything. */
  usedByAnother(jti: string, tokenSha256: string): boolean {
    const earlier = this.seen.get(jti);
    return earlier !== undefined && earlier !== tokenSha256;
  }

  clear(): void {
    this.seen.clear();
  }
}

/** v1 sometimes passed keys in query parameters (§5 migration notes); v2 takes them in headers only. */

const CREDENTIAL_NAME = /(^|[-_.])(key|apikey|api[-_]?key|token|access[-_]?token|jwt|secret|signature|sig|auth|authorization|password)$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;

/** The first query parameter that carries a credential: named as one, holding the key, or holding a JWT. */
export function findCredentialInQuery(query: URLSearchParams, partnerKey: string): string | undefined {
  for (const [name, value] of query) if (isCredentialParameter(name, value, partnerKey)) return name;
  return undefined;
}

/** A query parameter that carries a credential, by its name or by its value. */
export function isCredentialParameter(name: string, value: string, partnerKey: string): boolean {
  // A key with '+' sent raw in a query string arrives with spaces: a query parser reads '+' as a space.
  return CREDENTIAL_NAME.test(name) || value === partnerKey || value === partnerKey.replaceAll('+', ' ') || JWT_SHAPE.test(value);
}

/** The 401 message for a credential found in the query string. */
export function queryCredentialMessage(parameter: string): string {
  return `a key or token was passed in the query parameter '${parameter}'; v2 takes the token only in the Authorization header (Bearer <JWT>), never in the URL, where proxies and logs keep it (§5)`;
}

/** As a log line shows it: every credential parameter's value replaced (the logger redacts the key and signatures elsewhere). */
export function urlWithoutCredentials(originalUrl: string, partnerKey: string): string {
  const mark = originalUrl.indexOf('?');
  if (mark < 0) return originalUrl;
  const pairs = originalUrl
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      // One pair at a time through URLSearchParams: it decodes, and never throws on a stray %.
      const [decoded] = [...new URLSearchParams(pair)];
      if (decoded === undefined || !isCredentialParameter(decoded[0], decoded[1], partnerKey)) return pair;
      return `${pair.split('=')[0]}=[redacted]`;
    });
  return `${originalUrl.slice(0, mark)}?${pairs.join('&')}`;
}
