/**
 * Where a request comes from: its socket's address, or, for a request another instance of the same database sent
 * on (server/cluster/), the address that instance saw, when the request carries a proof signed with the
 * database's forward key (domain/forward-proof.ts). The control API and the dashboard judge loopback by this.
 */
import type { IncomingMessage } from 'node:http';
import { verifyForward } from './forward-proof.js';

/** Set by the instance that forwards: the client address it saw. */
export const FORWARDED_FOR = 'x-sandbox-forwarded-for';
/** Set by the instance that forwards: its own id. */
export const FORWARDED_BY = 'x-sandbox-forwarded-by';
/** Set by the instance that forwards: the proof over this request (domain/forward-proof.ts). */
export const FORWARD_PROOF = 'x-sandbox-forward-proof';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * The address of the client `req` comes from. A forwarded address counts only with a proof that holds for this
 * method, target, address and forwarding instance, now; one without (a client that set the headers itself, or a
 * proof replayed for another request or too late) counts as no address at all: never loopback.
 */
export function clientAddress(req: IncomingMessage, forwardKey: string | undefined, now: number = Date.now()): string | undefined {
  const forwardedFor = req.headers[FORWARDED_FOR];
  if (forwardedFor === undefined) return req.socket.remoteAddress;
  const proof = req.headers[FORWARD_PROOF];
  const forwardedBy = req.headers[FORWARDED_BY];
  if (forwardKey === undefined || typeof proof !== 'string' || typeof forwardedFor !== 'string' || typeof forwardedBy !== 'string') return undefined;
  // Express rewrites req.url under a mounted router; the target the proof signed is the one received.
  const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return verifyForward(forwardKey, proof, { method: req.method ?? '', target, forwardedFor, forwardedBy }, now) ? forwardedFor : undefined;
}
