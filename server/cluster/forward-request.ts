/**
 * A request for a partner another instance leads, sent on to that instance whole, and its answer passed back as it
 * comes (an event stream included). The body is read first: a leader found gone before it took the request (the
 * connection refused) can then be replaced and the request sent again, with nothing sent twice.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { envelopeFamilyFor, renderEnvelope } from '../errors.js';

/** Set by the instance that forwards: the leader then treats the call as from elsewhere, never as loopback. */
export const FORWARDED_FOR = 'x-sandbox-forwarded-for';
export const FORWARDED_BY = 'x-sandbox-forwarded-by';
/** The database's forward key: proves the request comes from an instance of this database, not from a client. */
export const FORWARD_KEY = 'x-sandbox-forward-key';

/** The most a forwarded request's body may be: past the POS API's 1 MiB, so the leader is the one to say 413. */
export const MAX_FORWARDED_BODY = 2 * 1024 * 1024;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-authenticate', FORWARDED_FOR, FORWARDED_BY, FORWARD_KEY]);

/**
 * The address of the client a request comes from: its socket's, or, for a request another instance sent on with the
 * database's forward key, the address that instance saw. A forwarded header without the right key counts as no
 * address at all (never loopback).
 */
export function clientAddress(req: IncomingMessage, forwardKey: string | undefined): string | undefined {
  const forwarded = req.headers[FORWARDED_FOR];
  if (forwarded === undefined) return req.socket.remoteAddress;
  const key = req.headers[FORWARD_KEY];
  if (forwardKey === undefined || typeof key !== 'string' || typeof forwarded !== 'string') return undefined;
  const sent = createHash('sha256').update(key).digest();
  return timingSafeEqual(sent, createHash('sha256').update(forwardKey).digest()) ? forwarded : undefined;
}

/**
 * Reads a request's body whole; undefined when it is larger than `MAX_FORWARDED_BODY`. A larger one is still read
 * to its end, and dropped: the client then gets the answer instead of a connection cut while it was still sending.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_FORWARDED_BODY) chunks.push(chunk);
  }
  return size > MAX_FORWARDED_BODY ? undefined : Buffer.concat(chunks);
}

/**
 * Sends the request to `target` and pipes the answer back. `refused`: the leader was not there (nothing reached
 * it), and the caller may try another; `sent`: the answer went to the client (or the client is gone).
 */
export function forwardRequest(options: { req: IncomingMessage; res: ServerResponse; body: Buffer; target: string; instanceId: string; forwardKey: string }): Promise<'sent' | 'refused'> {
  const { req, res, body } = options;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers['content-length'] = String(body.length);
  // A request that came forwarded already (a leader that lost the lead mid-way) keeps its first client's address.
  headers[FORWARDED_FOR] = clientAddress(req, options.forwardKey) ?? 'unknown';
  headers[FORWARDED_BY] = options.instanceId;
  headers[FORWARD_KEY] = options.forwardKey;
  return new Promise((resolve) => {
    let answered = false;
    const upstream = httpRequest(new URL(req.url ?? '/', options.target), { method: req.method, headers }, (answer) => {
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
