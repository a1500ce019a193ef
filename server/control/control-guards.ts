/** /_sandbox refuses what a web page in the developer's browser could send: another origin, a body sent without a CORS preflight, a Host that is not its own (DNS rebinding). */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { clientAddress, FORWARDED_FOR, isLoopbackAddress } from '../hosted/forwarding.js';

export interface CrossSitePolicy {
  /** --host: the address the sandbox listens on; a Host naming it is the sandbox's own. */
  listenHost: string | undefined;
  /** Started with --admin-token: the token protects the API, so any Host is taken. */
  adminToken: boolean;
}

/** What the guard reads of a request. */
export interface GuardedRequest {
  method: string;
  /** `http` or `https`: with Host, the sandbox's own origin. */
  protocol: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  contentType: string | undefined;
  /** A Content-Length over 0, or a Transfer-Encoding. */
  hasBody: boolean;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A bracketed IPv6 address or a name of letters, digits, dots and dashes, then an optional port: all a browser sends. */
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;
const LOOPBACK_NAMES = 'localhost, *.localhost, 127.x.x.x or [::1]';

/** Pure: the refusal for one control request, or undefined when it may go on. */
export function crossSiteRefusal(request: GuardedRequest, policy: CrossSitePolicy): ApiError | undefined {
  const { host, origin, method } = request;
  // A browser always sends Host; a request without one comes from a tool, not from a page.
  if (!policy.adminToken && host !== undefined && !isOwnHost(host, policy.listenHost)) {
    const listen = policy.listenHost === undefined ? undefined : bracketed(policy.listenHost);
    const names = listen === undefined || isOwnHost(listen, undefined) ? LOOPBACK_NAMES : `${LOOPBACK_NAMES.replace(' or ', ', ')} or ${listen} (--host)`;
    return new ApiError(
      'FORBIDDEN',
      `Host '${host}' is not this sandbox's name: the control API answers requests addressed to ${names}, so that a web page cannot reach it through a DNS name pointed at this machine (DNS rebinding); address the sandbox by one of those names, or start it with --admin-token to take any Host`,
    );
  }
  if (origin !== undefined && !sameOrigin(origin, request.protocol, host)) {
    const own = host === undefined ? 'this request named no Host' : `its own is ${request.protocol}://${host}`;
    return new ApiError(
      'FORBIDDEN',
      `cross-site request refused: Origin '${origin}' is not this sandbox's (${own}); the control API takes no calls from web pages of other origins, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist), which sends no Origin header`,
    );
  }
  if (request.secFetchSite?.trim().toLowerCase() === 'cross-site') {
    return new ApiError(
      'FORBIDDEN',
      'cross-site request refused: the browser marked it Sec-Fetch-Site: cross-site; the control API takes no calls from web pages of other sites, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist)',
    );
  }
  if (STATE_CHANGING.has(method.toUpperCase())) {
    const mediaType = request.contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType === undefined ? request.hasBody : mediaType !== 'application/json') {
      const got = request.contentType === undefined ? 'a body without Content-Type' : `Content-Type '${request.contentType}'`;
      return new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${got} refused on ${method.toUpperCase()}: the control API takes application/json bodies only, since a web page may send text/plain, form and multipart bodies to any site without asking first; send Content-Type: application/json, or no body and no Content-Type`,
      );
    }
  }
  return undefined;
}

/** A loopback name, or the address the sandbox listens on, with or without a port. */
export function isOwnHost(host: string, listenHost: string | undefined): boolean {
  const match = HOST_SYNTAX.exec(host);
  if (!match) return false;
  const name = match[1]!.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost') || name === '[::1]') return true;
  if (/^127(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(name)) return true;
  return listenHost !== undefined && name === bracketed(listenHost).toLowerCase();
}

/** `::1` → `[::1]`: how an IPv6 address appears in Host and in an origin. */
const bracketed = (address: string): string => (address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);

function sameOrigin(origin: string, protocol: string, host: string | undefined): boolean {
  if (host === undefined || !HOST_SYNTAX.test(host)) return false;
  try {
    // URL drops default ports and lowercases, so http://LOCALHOST:80 and http://localhost are one origin.
    return new URL(origin).origin === new URL(`${protocol}://${host}`).origin;
  } catch {
    // `null` (a sandboxed frame, a file:// page) and anything else that is not an origin.
    return false;
  }
}

const SINGLE_HEADERS = ['host', 'origin', 'sec-fetch-site'];

/** A second Host, Origin or Sec-Fetch-Site could slip past the checks (Node keeps the first Host and joins the others); a browser never sends two. */
export function repeatedHeaderRefusal(rawHeaders: readonly string[]): ApiError | undefined {
  const counts = new Map<string, number>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    if (!SINGLE_HEADERS.includes(name)) continue;
    const listed = name === 'sec-fetch-site' ? (rawHeaders[i + 1] ?? '').split(',').length : 1;
    counts.set(name, (counts.get(name) ?? 0) + listed);
  }
  const repeated = [...counts].filter(([, count]) => count > 1).map(([name]) => name);
  if (repeated.length === 0) return undefined;
  return new ApiError('INVALID_REQUEST', `${repeated.join(', ')} given more than once; the control API takes Host, Origin and Sec-Fetch-Site once each, with one value`);
}

/** The guard in front of every control route. */
export function crossSiteGuard(policy: CrossSitePolicy): RequestHandler {
  return (req, _res, next) => {
    const repeated = repeatedHeaderRefusal(req.rawHeaders);
    if (repeated) throw repeated;
    const length = Number(req.headers['content-length'] ?? 0);
    const refusal = crossSiteRefusal(
      {
        method: req.method,
        protocol: req.protocol,
        host: req.headers.host,
        origin: req.headers.origin,
        secFetchSite: req.get('sec-fetch-site'),
        contentType: req.headers['content-type'],
        hasBody: req.headers['transfer-encoding'] !== undefined || length !== 0,
      },
      policy,
    );
    if (refusal) throw refusal;
    next();
  };
}

/** /_sandbox answers loopback clients only, or, with --admin-token, whoever sends that token. */

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
