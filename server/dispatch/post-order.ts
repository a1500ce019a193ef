/** One HTTP attempt to hand an order to the POS: the request, the POS's answer or why there was none. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AttemptResult } from '../domain/pos-order-reply.js';

export interface PostOrderInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (connect, send, answer) must finish within this. */
  timeoutMs: number;
  /** A drop fault: send this many bytes of the body, then cut the connection. */
  cutAfterBytes?: number;
}

export interface PostOrderResult extends AttemptResult {
  responseHeaders?: Record<string, string>;
}

/** A reply is read up to this size; an order reply is a few hundred bytes. */
const MAX_REPLY_BYTES = 64 * 1024;

export function postOrder({ url, headers, body, timeoutMs, cutAfterBytes }: PostOrderInput): Promise<PostOrderResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: PostOrderResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // No keep-alive agent: each attempt is its own connection, so a hung POS cannot hold the next one.
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false });
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: connectionProblem(error, target) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish({ status: res.statusCode, error: connectionProblem(error, target) }));
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

function connectionProblem(error: NodeJS.ErrnoException, target: URL): string {
  if (error.code === 'ECONNREFUSED') return `connection refused by ${target.host}: is the POS listening at ${target.origin}?`;
  if (error.code === 'ECONNRESET') return `the POS closed the connection without an answer (${error.code})`;
  if (error.code === 'ENOTFOUND') return `host ${target.hostname} not found`;
  return `${error.code ?? 'error'}: ${error.message}`;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
