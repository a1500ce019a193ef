/** The §5 authentication stage of every POS → service call. */
import type { KeyObject } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ApiError } from '../errors.js';
import { lifetimeFindings, finding } from '../http/findings.js';
import { checkAuthorizationHeader, TokenReads, type TokenDefect } from './pos-token-rules.js';
import { findCredentialInQuery, queryCredentialMessage } from './query-credentials.js';
import type { JtiRegistry } from './jti-registry.js';
import { addFindings } from '../http/findings-header.js';

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
