/** The control commands' one way to a running sandbox's control API: JSON in and out, every failure said once with its URL; SANDBOX_ADMIN_TOKEN sent when set. */
import { nextPageLink } from '../control/control-query.js';
import { printable } from '../http/messages.js';
import type { IncomingMessage } from 'node:http';
import { DEFAULT_HOST, DEFAULT_PORT } from '../config.js';

/** Longer than the longest answer held back on purpose (`orders create --wait`: three tries of 10 s). */
export const CONTROL_SILENCE_MS = 60_000;

/** A failure to report: one line on stderr and the exit code (1: the sandbox said no or could not be reached). */
export class ControlError extends Error {}

export interface ControlClient {
  readonly baseUrl: string;
  call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** Follows Link rel="next": a page may hold fewer items than its limit. */
  list<T>(path: string, count: number): Promise<T[]>;
  /** The answer itself, its body unread, for the event stream. */
  open(path: string, headers?: Record<string, string>): Promise<HttpAnswer>;
}

export function controlClient(baseUrl: string, env: Readonly<Record<string, string | undefined>>, silenceMs = CONTROL_SILENCE_MS): ControlClient {
  const admin: Record<string, string> = env.SANDBOX_ADMIN_TOKEN === undefined || env.SANDBOX_ADMIN_TOKEN === '' ? {} : { authorization: `Bearer ${env.SANDBOX_ADMIN_TOKEN}` };
  // Duck-typed: a NoAnswerError made in another realm (jest's contexts) is one all the same.
  const silent = (method: string, path: string, error: unknown) =>
    (error as { name?: unknown } | null)?.name === 'NoAnswerError'
      ? new ControlError(`${method} ${baseUrl}${path}: the server took the connection but said nothing for ${silenceMs / 1000} s; is ${baseUrl} the sandbox, and is it stuck?`)
      : undefined;
  const send = async (method: string, path: string, headers: Record<string, string>, body?: string, quietOk = false): Promise<HttpAnswer> => {
    try {
      return await httpExchange(new URL(`${baseUrl}${path}`), { method, headers: { accept: 'application/json', ...admin, ...headers }, ...(body === undefined ? {} : { body }), ...(quietOk ? {} : { silenceMs }) });
    } catch (error) {
      throw silent(method, path, error) ?? new ControlError(`cannot reach the sandbox at ${baseUrl}: ${failureCause(error)} (is \`pos-sandbox serve\` running there? point at it with --sandbox URL or SANDBOX_URL)`);
    }
  };
  const read = async (method: string, path: string, response: HttpAnswer): Promise<string> => {
    try {
      return await response.text();
    } catch (error) {
      throw silent(method, path, error) ?? new ControlError(`${method} ${baseUrl}${path}: the answer broke off: ${failureCause(error)}`);
    }
  };
  const notTheSandbox = (method: string, path: string, response: HttpAnswer) =>
    new ControlError(`${method} ${baseUrl}${path} answered ${response.status} with ${response.contentType ?? 'no content type'}, not the sandbox's JSON: is ${baseUrl} the sandbox?`);
  const exchange = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<{ value: T; next: string | undefined }> => {
    const response = body === undefined ? await send(method, path, {}) : await send(method, path, { 'content-type': 'application/json' }, JSON.stringify(body));
    const text = await read(method, path, response);
    const link = response.body.headers.link;
    const next = nextPageLink(Array.isArray(link) ? link.join(', ') : link);
    if (response.status === 204 || (text === '' && response.ok)) return { value: undefined as T, next };
    if (!(response.contentType ?? '').includes('json')) throw notTheSandbox(method, path, response);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw notTheSandbox(method, path, response);
    }
    if (response.ok) return { value: parsed as T, next };
    throw new ControlError(`${method} ${baseUrl}${path} answered ${response.status}: ${errorsSaid(parsed, text)}${tokenHint(response.status, admin)}`);
  };
  return {
    baseUrl,
    async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
      return (await exchange<T>(method, path, body)).value;
    },
    async list<T>(path: string, count: number): Promise<T[]> {
      const items: T[] = [];
      for (let next: string | undefined = path; next !== undefined && items.length < count; ) {
        const page: { value: T[]; next: string | undefined } = await exchange<T[]>('GET', next);
        if (!Array.isArray(page.value)) throw new ControlError(`GET ${baseUrl}${next} answered JSON that is no list: is ${baseUrl} the sandbox?`);
        items.push(...page.value);
        // An empty page ends it, whatever its Link says: a server naming a next page for ever would hold the command.
        if (page.value.length === 0) break;
        // Only a path of this sandbox's: a Link naming another host is not followed.
        next = page.next?.startsWith('/') && !page.next.startsWith('//') ? page.next : undefined;
      }
      return items.slice(0, count);
    },
    async open(path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
      // An event stream is quiet between events: no limit on silence.
      const response = await send('GET', path, headers, undefined, true);
      if (!response.ok) {
        const text = await read('GET', path, response);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        throw new ControlError(`GET ${baseUrl}${path} answered ${response.status}: ${errorsSaid(parsed, text)}${tokenHint(response.status, admin)}`);
      }
      return response;
    },
  };
}

/** A 401 to a command: where the commands take the token from. */
function tokenHint(status: number, admin: Record<string, string>): string {
  if (status !== 401) return '';
  return admin.authorization === undefined ? ' (the commands send the token set in SANDBOX_ADMIN_TOKEN; none is set)' : ' (the commands sent the token set in SANDBOX_ADMIN_TOKEN)';
}

/** The envelope's codes and messages on one line, printable, or the text when it is no envelope. */
function errorsSaid(parsed: unknown, text: string): string {
  const errors = parsed !== null && typeof parsed === 'object' ? (parsed as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return printable(text);
  const field = (error: unknown, name: string) => {
    const value = error !== null && typeof error === 'object' ? (error as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return printable(errors.map((error) => `${field(error, 'code') ?? 'ERROR'}: ${field(error, 'message') ?? ''}`).join('; '));
}

/** One HTTP exchange through node:http, not fetch, whose first use in a process costs a command more than all else it does. */

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
  /** Silence allowed before and during the answer; none for an event stream. */
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

/** Pure: why a request failed, from the `cause` undici's "fetch failed" keeps. */
export function failureCause(error: unknown): string {
  // Duck-typed, not instanceof: fetch's errors may come from another realm (jest's vm contexts, workers).
  const field = (value: unknown, name: 'cause' | 'errors'): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
  let deepest: unknown = error;
  for (let depth = 0; depth < 5 && field(deepest, 'cause') !== undefined; depth++) deepest = field(deepest, 'cause');
  const errors = field(deepest, 'errors');
  if (Array.isArray(errors) && errors.length > 0) deepest = errors[0];
  const { code, message } = (deepest ?? {}) as { code?: string; message?: string };
  const text = message === undefined || message === '' ? String(deepest) : message;
  // Node's own messages already start with the code ("connect ECONNREFUSED 127.0.0.1:4199").
  return code === undefined || text.includes(code) ? text : `${code}: ${text}`;
}

/** Pure: which sandbox a command talks to: --sandbox, else SANDBOX_URL, else the default address. */

export const DEFAULT_SANDBOX_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

export type SandboxUrl = { ok: true; url: string; from: '--sandbox' | 'SANDBOX_URL' | 'the default' } | { ok: false; problem: string };

/** The base URL without a trailing slash (a path is kept: a sandbox behind a proxy may live under one). */
export function resolveSandboxUrl(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): SandboxUrl {
  const fromEnv = env.SANDBOX_URL === undefined || env.SANDBOX_URL.trim() === '' ? undefined : env.SANDBOX_URL.trim();
  const [value, from] = flag !== undefined ? [flag, '--sandbox' as const] : fromEnv !== undefined ? [fromEnv, 'SANDBOX_URL' as const] : [DEFAULT_SANDBOX_URL, 'the default' as const];
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    return { ok: false, problem: `${from} must be the http(s) address of the sandbox, such as ${DEFAULT_SANDBOX_URL}, got '${value}'` };
  }
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, from };
}
