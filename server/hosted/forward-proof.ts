/**
 * Pure: the proof that a request was sent on by another instance of the same database (docs/hosting.md). The
 * database's forward key never travels: the forwarding instance signs, with an HMAC under that key, the request's
 * method and target, the client address it saw, its own id and the time. The proof is good for that one request
 * only, and for `FORWARD_PROOF_VALIDITY_MS` either side of the leader's clock. So a proof that leaked (a journal
 * read by a partner, a log) cannot vouch for another method, path or address, nor for anything a minute later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far the signing time may be from the checking instance's clock, either way (instances' clocks differ a little). */
export const FORWARD_PROOF_VALIDITY_MS = 30_000;
const VERSION = 'v1';

export interface ForwardedRequest {
  method: string;
  /** The request target as the leader receives it: origin-form, path and query. */
  target: string;
  /** The client address the forwarding instance saw. */
  forwardedFor: string;
  /** The forwarding instance's id. */
  forwardedBy: string;
}

/** The header value that proves `request` was forwarded at `at` (ms since the epoch) by an instance holding `key`. */
export function signForward(key: string, request: ForwardedRequest, at: number): string {
  return `${VERSION} ${at} ${mac(key, request, at)}`;
}

/** Does `proof` vouch for exactly this request, made within the validity of `now`? Never throws. */
export function verifyForward(key: string, proof: string, request: ForwardedRequest, now: number): boolean {
  const [version, at, sent, ...rest] = proof.split(' ');
  if (version !== VERSION || at === undefined || sent === undefined || rest.length > 0 || !/^\d{1,16}$/.test(at)) return false;
  const time = Number(at);
  if (Math.abs(now - time) > FORWARD_PROOF_VALIDITY_MS) return false;
  const expected = Buffer.from(mac(key, request, time), 'base64url');
  const given = Buffer.from(sent, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function mac(key: string, request: ForwardedRequest, at: number): string {
  // Newline-separated: no field can hold a newline (HTTP forbids it in a method, a target and a header value).
  const signed = [VERSION, request.method, request.target, request.forwardedFor, request.forwardedBy, String(at)].join('\n');
  return createHmac('sha256', key).update(signed).digest('base64url');
}
