/** /_sandbox answers loopback clients only, or, with --admin-token, whoever sends that token. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { clientAddress, FORWARDED_FOR, isLoopbackAddress } from '../hosted/client-address.js';

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function sameSecret(sent: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

function forwardedFrom(header: string | string[] | undefined): string | undefined {
  return header === undefined ? undefined : `${Array.isArray(header) ? header[0] : header}, through another instance`;
}

export function adminGuard(adminToken: string | undefined, forwardKey?: string): RequestHandler {
  return (req, _res, next) => {
    if (adminToken === undefined) {
      // A request another instance sent on (several instances on one database) came from that instance's client.
      if (isLoopbackAddress(clientAddress(req, forwardKey))) return next();
      throw new ApiError(
        'FORBIDDEN',
        `the control API answers loopback clients only (this request came from ${forwardedFrom(req.headers[FORWARDED_FOR]) ?? req.socket.remoteAddress ?? 'an address-less socket'}); start the sandbox with --admin-token to allow others`,
      );
    }
    const sent = /^\s*Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]?.trim();
    if (sent !== undefined && sameSecret(sent, adminToken)) return next();
    throw new ApiError('UNAUTHORIZED', 'the control API needs Authorization: Bearer <admin token> (the sandbox was started with --admin-token)');
  };
}
