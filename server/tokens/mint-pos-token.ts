/** Tokens as §5 describes, both ways: POS → service, and service → POS for every delivery (iss and aud swap). */
import { randomUUID, type KeyObject, createHash } from 'node:crypto';
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

/** A POS → service token: iss the POS name, aud the service. Exactly the six §5 claims. */
export function mintPosToken(input: MintPosTokenInput): { token: string; claims: PosTokenClaims } {
  return mint(input, input.posName, SERVICE_AUDIENCE);
}

/** A service → POS token: iss the service, aud the POS name, sub the order's location. */
export function mintServiceToken(input: MintPosTokenInput): { token: string; claims: PosTokenClaims } {
  return mint(input, SERVICE_AUDIENCE, input.posName);
}

function mint(input: MintPosTokenInput, iss: string, aud: string): { token: string; claims: PosTokenClaims } {
  const claims: PosTokenClaims = {
    sub: input.locationId,
    jti: input.jti ?? randomUUID(),
    nbf: input.nowSeconds,
    exp: input.nowSeconds + input.ttlSeconds,
    iss,
    aud,
  };
  // noTimestamp: §5 lists six claims and no iat; a token the sandbox mints is the model to copy.
  const token = jwt.sign(claims, input.key, { algorithm: 'HS256', noTimestamp: true });
  return { token, claims };
}

/** Pure: the key as it may be shown: a fingerprint (`sha256:` and the first 16 hex digits of its sha256), never the key. */

export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
