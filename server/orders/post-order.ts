/** One HTTP attempt to hand an order to the POS: the request, the POS's answer or why there was none. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AttemptResult } from './pos-order-reply.js';
import { OPEN_EGRESS, type EgressPolicy } from '../hosted/egress-policy.js';
import { failureMessage, guardTarget, timeoutMessage } from '../hosted/guarded-connection.js';

export interface PostOrderInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (connect, send, answer) must finish within this. */
  timeoutMs: number;
  /** A drop fault: send this many bytes of the body, then cut the connection. */
  cutAfterBytes?: number;
  /** Which addresses may be called (egress/egress-policy.ts); open on a laptop. */
  egress?: EgressPolicy;
}

export interface PostOrderResult extends AttemptResult {
  responseHeaders?: Record<string, string>;
}

/** A reply is read up to this size; an order reply is a few hundred bytes. */
const MAX_REPLY_BYTES = 64 * 1024;

const WHAT = "the POS's order endpoint";

export function postOrder({ url, headers, body, timeoutMs, cutAfterBytes, egress = OPEN_EGRESS }: PostOrderInput): Promise<PostOrderResult> {
  // Judged at every try, not only when the order was made: the partners file may have changed since.
  const guarded = guardTarget(egress, url, WHAT);
  if (!guarded.ok) return Promise.resolve({ error: `not sent: ${guarded.problem}` });
  return new Promise((resolve) => {
    const target = guarded.url;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: PostOrderResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // No keep-alive agent: each attempt is its own connection, so a hung POS cannot hold the next one. Node never
    // follows a redirect: a 3xx is an answer like any other, judged as one.
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, ...(guarded.lookup ? { lookup: guarded.lookup } : {}) });
    const timer = setTimeout(() => {
      finish({ error: timeoutMessage(egress, target, WHAT, timeoutMs) });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: failureMessage(egress, error, target, WHAT) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ status: res.statusCode, error: failureMessage(egress, error, target, WHAT) }));
      res.on('end', () =>
        finish({ status: res.statusCode, bodyText: Buffer.concat(chunks).toString('utf8'), responseHeaders: flatHeaders(res.headers) }),
      );
    });
    if (cutAfterBytes === undefined) return req.end(body);
    // Headers promise the whole body; the connection is cut once part of it has gone, as a failing network does.
    req.write(Buffer.from(body).subarray(0, cutAfterBytes), () => {
      finish({ error: `connection cut after ${cutAfterBytes} bytes of the body` });
      req.destroy();
    });
  });
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
