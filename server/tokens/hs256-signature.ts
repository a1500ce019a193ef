/**
 * Pure: the shortcut for the usual case of §5, a good HS256 signature, settled by one HMAC. jsonwebtoken decodes
 * the token again and walks its options on every call, which made its verify the largest single cost of a clean
 * refund; a `true` here is given only where jsonwebtoken's verify would pass (a property test pins that), and
 * anything else still goes to jsonwebtoken, whose message the 401 quotes.
 */
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What jsonwebtoken (through jws) takes as a signature: base64url characters, at least one. */
const SIGNATURE = /^[A-Za-z0-9_-]+$/;

/**
 * Does `token`'s signature verify with `key` under HS256? For a token already split into three parts whose header
 * (alg HS256) and payload decoded as JSON objects: `checkPosToken` calls it only then.
 */
export function hs256SignatureMatches(token: string, key: KeyObject): boolean {
  const lastDot = token.lastIndexOf('.');
  const signature = token.slice(lastDot + 1);
  if (lastDot < 0 || !SIGNATURE.test(signature)) return false;
  const expected = createHmac('sha256', key).update(token.slice(0, lastDot)).digest('base64url');
  // Compared as text, as jws does: a signature with other trailing bits decodes to the same bytes but is not the same.
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}
