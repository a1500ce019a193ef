/** Pure: how a correct POS checks the token of an order from the service (§5), written with jsonwebtoken as a partner would, not with the sandbox's own rules. */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const SERVICE_ISSUER = 'io.service.pos.brokers.openapi';

/** Made once: given a string at each call, jsonwebtoken first tries it as a PEM key, many times the work itself. */
export function secretKey(key: string): KeyObject {
  return createSecretKey(Buffer.from(key, 'utf8'));
}

export interface ServiceTokenContext {
  key: KeyObject | string;
  posName: string;
  locationId: string | undefined;
  nowSeconds: number;
  /** The accept-bad-signature bug: read the claims without checking who signed them. */
  skipSignature?: boolean;
  /** The accept-expired-token bug: exp is not checked. */
  ignoreExpiry?: boolean;
  /** The accept-wrong-audience bug: aud is not checked. */
  ignoreAudience?: boolean;
}

export type ServiceTokenCheck = { ok: true; claims: jwt.JwtPayload } | { ok: false; reason: string };

export function checkServiceToken(authorization: string | undefined, context: ServiceTokenContext): ServiceTokenCheck {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!token) return { ok: false, reason: 'Authorization: Bearer <JWT> is missing' };
  let claims: jwt.JwtPayload;
  try {
    const options = {
      algorithms: ['HS256' as const],
      ...(context.ignoreAudience ? {} : { audience: context.posName }),
      issuer: SERVICE_ISSUER,
      clockTolerance: 60,
      clockTimestamp: context.nowSeconds,
      ignoreExpiration: context.ignoreExpiry === true,
    };
    let checked = token;
    if (context.skipSignature) {
      // The bug trusts whoever signed: the claims are signed again with the right key, so every other check still runs.
      const decoded = jwt.decode(token, { json: true });
      if (!decoded) return { ok: false, reason: 'token is not a JWT' };
      checked = jwt.sign(decoded, context.key, { algorithm: 'HS256', noTimestamp: true });
    }
    claims = jwt.verify(checked, context.key, options) as jwt.JwtPayload;
  } catch (error) {
    return { ok: false, reason: `token rejected: ${(error as Error).message}` };
  }
  if (typeof claims.jti !== 'string' || claims.jti === '') return { ok: false, reason: 'token has no jti' };
  if (typeof claims.nbf !== 'number' || typeof claims.exp !== 'number') return { ok: false, reason: 'token must carry nbf and exp' };
  if (context.locationId !== undefined && claims.sub !== context.locationId) {
    return { ok: false, reason: `token sub '${String(claims.sub)}' is not the x-service-locationid '${context.locationId}'` };
  }
  return { ok: true, claims };
}
