/** Sends WireCases over real HTTP with a keep-alive agent: headers exactly as listed (repeats kept), the body as bytes. */
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Answer } from './answer-check.js';
import type { WireCase } from './wire-case.js';

/** An answer, or why there was none (the connection was reset, the time ran out, the caller gave up). */
export type Sent = { ok: true; answer: Answer; ms: number } | { ok: false; error: string; ms: number };

/** The start of the error of a case the HTTP client refused to send. */
export const UNSENDABLE = 'unsendable case: ';

export class WireClient {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(baseUrl: string, options: { maxSockets?: number } = {}) {
    this.url = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 });
  }

  send(wire: WireCase, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Sent> {
    const started = performance.now();
    const names = new Set(wire.headers.map(([name]) => name.toLowerCase()));
    const flat: string[] = [];
    if (!names.has('host')) flat.push('Host', this.url.host);
    for (const [name, value] of wire.headers) flat.push(name, value);
    if (!names.has('content-length') && !names.has('transfer-encoding')) flat.push('Content-Length', String(wire.body?.length ?? 0));
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: Sent) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const fail = (error: string) => done({ ok: false, error, ms: performance.now() - started });
      const onAnswer = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => fail(`response broke off: ${error.message}`));
        res.on('end', () => {
          const answer = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
          done({ ok: true, answer, ms: performance.now() - started });
        });
      };
      let req: ClientRequest;
      try {
        const target = { host: this.url.hostname, port: this.url.port, method: wire.method, path: wire.path, headers: flat, agent: this.agent, signal: options.signal };
        req = request(target, onAnswer);
      } catch (error) {
        // Node refused to send the case (a character it does not allow in a header or path): the generator's fault, not the sandbox's.
        resolve({ ok: false, error: `${UNSENDABLE}${(error as Error).message}`, ms: 0 });
        return;
      }
      const timer = setTimeout(() => {
        fail(`no answer within ${options.timeoutMs ?? 15_000} ms`);
        req.destroy();
      }, options.timeoutMs ?? 15_000);
      req.on('error', (error: NodeJS.ErrnoException) => fail(`${error.code ?? error.name}: ${error.message}`));
      req.end(wire.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
