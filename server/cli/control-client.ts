/**
 * The control commands' one way to the control API of a running sandbox: JSON in and out, and every failure said
 * once with the URL it happened on (a sandbox that does not answer, a server that is not the sandbox, an API error
 * with the envelope's message). SANDBOX_ADMIN_TOKEN is sent as the bearer token when set, for a sandbox that is
 * reached by another name than loopback.
 */
import { nextPageLink } from '../control/control-query.js';
import { printable } from '../http/messages.js';
import { failureCause } from './failure-cause.js';
import { httpExchange, type HttpAnswer } from './http-exchange.js';

/**
 * How long a control command waits while the sandbox says nothing. Longer than the longest answer the sandbox holds
 * back on purpose: `orders create --wait`, up to three delivery tries of 10 s and the pauses between them.
 */
export const CONTROL_SILENCE_MS = 60_000;

/** A failure to report: one line on stderr and the exit code (1: the sandbox said no or could not be reached). */
export class ControlError extends Error {}

export interface ControlClient {
  readonly baseUrl: string;
  call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /**
   * Up to `count` items of a list, following its Link rel="next" pages: a page may hold fewer items than its limit
   * (a page of large journal entries stops at a size, or at a time when the sandbox is busy).
   */
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

/**
 * An error answer said on one line: the envelope's codes and messages, or the text when it is no envelope. Printable:
 * a message can quote what a client sent (a newline in it would print a line that looks like the command's own).
 */
function errorsSaid(parsed: unknown, text: string): string {
  const errors = parsed !== null && typeof parsed === 'object' ? (parsed as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return printable(text);
  const field = (error: unknown, name: string) => {
    const value = error !== null && typeof error === 'object' ? (error as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return printable(errors.map((error) => `${field(error, 'code') ?? 'ERROR'}: ${field(error, 'message') ?? ''}`).join('; '));
}
