/**
 * `fetch` held to a partner's egress policy, for the checklist runs a hosted sandbox makes for a partner (the driver
 * and order URLs it was given). Made with node:http, whose connections take the guarded lookup, and which follows no
 * redirect: a 3xx is an answer like any other. On a laptop (an open policy) it is the global fetch itself.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { EgressPolicy } from './egress-policy.js';
import { failureMessage, guardTarget, unreachedMessage } from './guarded-connection.js';

/** An answer is read up to this size: a driver answers a few hundred bytes, a health check a little more. */
const MAX_ANSWER_BYTES = 256 * 1024;

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export function egressFetch(policy: EgressPolicy, what: string): Fetch {
  if (policy.kind === 'open') return fetch;
  return async (input, init = {}) => {
    const guarded = guardTarget(policy, String(input), what);
    if (!guarded.ok) throw new Error(`not sent: ${guarded.problem}`);
    const { url, lookup } = guarded;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? init.body : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, { method: init.method ?? 'GET', headers, agent: false, ...(lookup ? { lookup } : {}) }, (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        answer.on('error', () => reject(new Error(unreachedMessage(url, what))));
        answer.on('end', () => {
          const status = answer.statusCode ?? 502;
          const passed = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string') passed.set(name, value);
          // Response refuses a body with the statuses that have none.
          const empty = status === 204 || status === 205 || status === 304 || (status >= 100 && status < 200);
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status: status < 200 || status > 599 ? 502 : status, headers: passed }));
        });
      });
      // A timeout reads as any other failure: a hosted sandbox does not tell them apart (guarded-connection.ts).
      const abort = () => {
        req.destroy();
        reject(new Error(unreachedMessage(url, what)));
      };
      if (init.signal?.aborted) return abort();
      init.signal?.addEventListener('abort', abort, { once: true });
      req.on('error', (error: NodeJS.ErrnoException) => reject(new Error(failureMessage(policy, error, url, what))));
      req.end(body);
    });
  };
}

/**
 * Checks a URL a partner hands the sandbox before anything is made of it: its origin, and (for a host name) every
 * address it resolves to now. Undefined when it may be called; else why not, to answer 400 with. The connection
 * made later is checked again.
 */
export async function egressProblem(policy: EgressPolicy, text: string, what: string): Promise<string | undefined> {
  const guarded = guardTarget(policy, text, what);
  if (!guarded.ok) return guarded.problem;
  const lookup = guarded.lookup;
  if (lookup === undefined) return undefined;
  return new Promise((resolve) => {
    lookup(guarded.url.hostname, { all: true }, (error) => {
      // A name that does not resolve now may resolve later (a POS not started yet): only a refusal is a problem.
      resolve(error && 'code' in error && error.code === 'EGRESS_REFUSED' ? error.message : undefined);
    });
  });
}
