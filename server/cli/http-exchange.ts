/**
 * One HTTP exchange through node:http (or node:https), for the control commands. Not fetch: on Node 20 the first
 * fetch of a process loads and compiles undici, about 170 ms of CPU, more than everything else a control command
 * does (`npm run bench:cli` shows the figure).
 */
import type { IncomingMessage } from 'node:http';

export interface HttpAnswer {
  status: number;
  /** 2xx. */
  ok: boolean;
  contentType: string | undefined;
  /** The body as it arrives, chunk by chunk (the event stream); or read it whole with text(). */
  body: IncomingMessage;
  text(): Promise<string>;
}

export interface HttpAsk {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Resolves once the answer's status and headers are in; rejects with Node's own error when nothing answers. */
export async function httpExchange(url: URL, ask: HttpAsk): Promise<HttpAnswer> {
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: ask.method, headers: ask.headers }, (response) => {
      const status = response.statusCode ?? 0;
      resolve({ status, ok: status >= 200 && status <= 299, contentType: response.headers['content-type'], body: response, text: () => readText(response) });
    });
    sent.on('error', reject);
    sent.end(ask.body);
  });
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
