/** A request for a partner another instance leads, sent there whole and its answer piped back; the body is read first, so a leader found gone can be replaced with nothing sent twice. It reaches a leader only, vouched for by a proof for that one request. */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { envelopeFamilyFor, renderEnvelope } from '../errors.js';
import { isOriginForm, ORIGIN_FORM_ONLY } from '../http/http-parser-errors.js';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Set by the instance that forwards: the client address it saw. */
export const FORWARDED_FOR = 'x-sandbox-forwarded-for';
/** Set by the instance that forwards: its own id. */
export const FORWARDED_BY = 'x-sandbox-forwarded-by';
/** Set by the instance that forwards: the proof over this request (forwarding.ts). */
export const FORWARD_PROOF = 'x-sandbox-forward-proof';

/** The most a forwarded request's body may be: past the POS API's 1 MiB, so the leader is the one to say 413. */
export const MAX_FORWARDED_BODY = 2 * 1024 * 1024;

/** The header of earlier versions, which carried the database's key itself: dropped wherever a client sends it. */
const RETIRED_KEY_HEADER = 'x-sandbox-forward-key';
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-authenticate',
  FORWARDED_FOR,
  FORWARDED_BY,
  FORWARD_PROOF,
  RETIRED_KEY_HEADER,
]);

/** A larger body is still read to its end and dropped, so the client gets an answer rather than a cut connection. */
export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_FORWARDED_BODY) chunks.push(chunk);
  }
  return size > MAX_FORWARDED_BODY ? undefined : Buffer.concat(chunks);
}

/** `refused`: nothing reached the leader, and the caller may try another; `sent`: the answer went to the client. */
export function forwardRequest(options: { req: IncomingMessage; res: ServerResponse; body: Buffer; leaderUrl: string; instanceId: string; forwardKey: string; now?: () => number }): Promise<'sent' | 'refused'> {
  const { req, res, body } = options;
  const target = req.url ?? '';
  if (!isOriginForm(target)) {
    refuse(req, res, 400, 'INVALID_REQUEST', ORIGIN_FORM_ONLY);
    return Promise.resolve('sent');
  }
  const leader = new URL(options.leaderUrl);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers['content-length'] = String(body.length);
  // A request that came forwarded already (a leader that lost the lead mid-way) keeps its first client's address.
  const forwardedFor = clientAddress(req, options.forwardKey) ?? 'unknown';
  const method = req.method ?? 'GET';
  headers[FORWARDED_FOR] = forwardedFor;
  headers[FORWARDED_BY] = options.instanceId;
  headers[FORWARD_PROOF] = signForward(options.forwardKey, { method, target, forwardedFor, forwardedBy: options.instanceId }, (options.now ?? Date.now)());
  const send = leader.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let answered = false;
    // Host, port and scheme are the leader's alone; the path is the request's, origin-form, as it came.
    const upstream = send({ protocol: leader.protocol, hostname: leader.hostname, port: leader.port, path: target, method, headers }, (answer) => {
      answered = true;
      const passed: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) passed[name] = value;
      res.writeHead(answer.statusCode ?? 502, passed);
      answer.pipe(res);
      answer.on('end', () => resolve('sent'));
      answer.on('error', () => {
        res.destroy();
        resolve('sent');
      });
    });
    // The client gone: so is the request to the leader (an event stream would run for ever).
    res.on('close', () => upstream.destroy());
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) {
        res.destroy();
        return resolve('sent');
      }
      if (error.code === 'ECONNREFUSED') return resolve('refused');
      // The leader took the request and went away before answering: whether it stored anything is unknown.
      unavailable(req, res, 'the instance leading this partner stopped while it had this request; whether it was stored is unknown: look it up before sending it again');
      resolve('sent');
    });
    upstream.end(body);
  });
}

/** 503 in the envelope of the request's path, with Retry-After. */
export function unavailable(req: IncomingMessage, res: ServerResponse, message: string): void {
  refuse(req, res, 503, 'SERVICE_UNAVAILABLE', message, { 'retry-after': '1' });
}

/** An answer of this instance's own, in the envelope of the request's path; the connection closes after it. */
export function refuse(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let path = '/';
  try {
    path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
  } catch {
    // A target no URL parser takes: the order envelope, as for any path that is not the menu's.
  }
  const text = JSON.stringify(renderEnvelope(envelopeFamilyFor(path), code, [message]));
  // The connection closes after it: a body this instance did not read to its end may still be arriving.
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close', ...headers });
  res.end(text);
}

/** Pure: the proof that another instance of the database sent a request on: an HMAC under the forward key over that request's method, target, client, forwarder and time, so a leaked proof vouches for nothing else. */

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

/** Where a request comes from: its socket, or, for one sent on with a valid proof, the client the other instance saw; loopback is judged by this. */


/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A forwarded address counts only with a proof that holds for this request now; without one, the request has no address at all, never loopback. */
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
