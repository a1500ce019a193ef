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
  /**
   * How long the connection may stay silent, before the answer and while its body is read, until the exchange
   * fails with NoAnswerError. None for an event stream, which is quiet between events.
   */
  silenceMs?: number;
}

/** Nothing came from the server for `silenceMs`: it took the connection and said nothing. */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
  constructor(readonly silenceMs: number) {
    super(`no answer within ${silenceMs / 1000} s`);
  }
}

/** Resolves once the answer's status and headers are in; rejects with Node's own error when nothing answers. */
export async function httpExchange(url: URL, ask: HttpAsk): Promise<HttpAnswer> {
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  let silence: NoAnswerError | undefined;
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: ask.method, headers: ask.headers }, (response) => {
      const status = response.statusCode ?? 0;
      resolve({ status, ok: status >= 200 && status <= 299, contentType: response.headers['content-type'], body: response, text: () => readText(response, () => silence) });
    });
    sent.on('error', reject);
    // The socket's own idle timer: reset by every byte either way, so a slow answer that keeps coming is not cut.
    if (ask.silenceMs !== undefined) sent.setTimeout(ask.silenceMs, () => sent.destroy((silence = new NoAnswerError(ask.silenceMs!))));
    sent.end(ask.body);
  });
}

/** The whole body as text; when the silence limit cut it, that is the error, not the socket's "aborted" that follows. */
async function readText(response: IncomingMessage, silence: () => NoAnswerError | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (error) {
    throw silence() ?? error;
  }
  return Buffer.concat(chunks).toString('utf8');
}
