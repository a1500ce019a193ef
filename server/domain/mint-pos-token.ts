/** Mints POS → service tokens exactly as §5 describes: the sandbox's curl, `pos-sandbox token` and the tests use it. */
import { randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SERVICE_AUDIENCE, type PosTokenClaims } from './pos-token-rules.js';

export interface MintPosTokenInput {
  posName: string;
  key: KeyObject | string;
  locationId: string;
  ttlSeconds: number;
  nowSeconds: number;
  jti?: string;
}

/** Returns an HS256 token with exactly the six §5 claims, and those claims. */
export function mintPosToken(input: MintPosTokenInput): { token: string; claims: PosTokenClaims } {
  const claims: PosTokenClaims = {
    sub: input.locationId,
    jti: input.jti ?? randomUUID(),
    nbf: input.nowSeconds,
    exp: input.nowSeconds + input.ttlSeconds,
    iss: input.posName,
    aud: SERVICE_AUDIENCE,
  };
  // noTimestamp: §5 lists six claims and no iat; a token the sandbox mints is the model to copy.
  const token = jwt.sign(claims, input.key, { algorithm: 'HS256', noTimestamp: true });
  return { token, claims };
}
