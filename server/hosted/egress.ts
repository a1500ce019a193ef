/** Pure: which addresses a sandbox may call for a partner (docs/hosting.md): any on a laptop; on a hosted sandbox the operator's allowed origins, on the public internet only unless a network is named, judged again after DNS at each connection. */
import ipaddr from 'ipaddr.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** An origin the operator allowed: exact, or any name under a domain (`*.` first), with its scheme and port. */
export interface OriginRule {
  protocol: 'http:' | 'https:';
  /** The host name (lower case); for a wildcard, the domain after `*.`. */
  host: string;
  wildcard: boolean;
  /** The port, always given (80 and 443 when the rule names none); `*`: any port. */
  port: number | '*';
  /** As the operator wrote it, for messages. */
  text: string;
}

export type EgressPolicy =
  | { kind: 'open' }
  | {
      kind: 'partner';
      partner: string;
      origins: OriginRule[];
      /** Networks the operator opened for this partner, beside the public internet. */
      networks: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
      /** Origins the sandbox opened itself for a while, with how many holders each. */
      granted: Map<string, number>;
      /** The partners file's own words, from which the policy is made again elsewhere (a checklist run's worker). */
      source: { allow: readonly string[]; allowNetworks: readonly string[] };
    };

/** The laptop's policy: anything goes, and a failed call says exactly why. */
export const OPEN_EGRESS: EgressPolicy = { kind: 'open' };

/** A partner's policy from the partners file's `egress` (already held to its schema) and the origins it implies. */
export function partnerEgress(partner: string, allow: readonly string[], networks: readonly string[]): EgressPolicy {
  return {
    kind: 'partner',
    partner,
    origins: allow.map((text) => {
      const rule = parseOriginRule(text);
      if (typeof rule === 'string') throw new Error(rule);
      return rule;
    }),
    networks: networks.map((cidr) => ipaddr.parseCIDR(cidr)),
    granted: new Map(),
    source: { allow: [...allow], allowNetworks: [...networks] },
  };
}

/** An origin rule: `https://pos.example.com`, `http://*.example.com:8080`, `http://10.20.0.5:*` (a test build on a new port each time). */
export function parseOriginRule(text: string): OriginRule | string {
  const match = /^(https?):\/\/(\*\.)?(\[[0-9A-Fa-f:.]+\]|[^/:?#@\s*[\]]+)(?::(\d{1,5}|\*))?\/?$/i.exec(text);
  if (match === null) return `'${text}' is not an origin such as https://pos.example.com, https://*.example.com or http://10.0.0.5:* (a scheme, a host, a port if any, and no path)`;
  const protocol = `${match[1]!.toLowerCase()}:` as OriginRule['protocol'];
  let host: string;
  try {
    // The URL parser's own reading of the host, as every URL checked against it will be read.
    host = new URL(`${protocol}//${match[3]}`).hostname;
  } catch {
    return `'${text}' names a host no URL can have`;
  }
  const port = match[4] === undefined ? (protocol === 'https:' ? 443 : 80) : match[4] === '*' ? '*' : Number(match[4]);
  if (port !== '*' && (port < 1 || port > 65535)) return `'${text}' names port ${port}; a port is 1 to 65535`;
  return { protocol, host, wildcard: match[2] !== undefined, port, text };
}

/** Why `text` is not a network such as `10.20.0.0/16`, or undefined when it is one. */
export function networkProblem(text: string): string | undefined {
  return ipaddr.isValidCIDR(text) ? undefined : `'${text}' is not a network in CIDR form, such as 10.20.0.0/16 or fd00:1::/64`;
}

/** The origin of a URL as the rules compare it: scheme, host, port always given. */
export function originKey(url: URL): string {
  return `${url.protocol}//${url.hostname}:${url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : url.port}`;
}

export type EgressVerdict = { ok: true; url: URL } | { ok: false; problem: string };

/** May the sandbox call `text` for this partner? The URL parsed, or why not (said to the partner as it is). */
export function checkEgressUrl(policy: EgressPolicy, text: string, what: string): EgressVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `${what} ${JSON.stringify(text)} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: `${what} must be an http or https URL, got ${url.protocol}` };
  // Credentials in a URL would travel to the POS in the clear and be shown in the journal; no POS needs them.
  if (url.username !== '' || url.password !== '') return { ok: false, problem: `${what} must not carry a user name or password` };
  if (policy.kind === 'open') return { ok: true, url };
  const key = originKey(url);
  if (policy.granted.has(key) || policy.origins.some((rule) => fits(rule, url))) return { ok: true, url };
  const allowed = allowedOrigins(policy);
  return {
    ok: false,
    problem: `${what} ${url.origin} is not an address this hosted sandbox calls for partner '${policy.partner}': it calls only the origins the operator allowed for it (${allowed}); ask the operator to add yours to egress.allow in the partners file`,
  };
}

/** The origins the operator allowed a partner, as the partners file says them, for a message: 'none yet' when none. */
export function allowedOrigins(policy: Extract<EgressPolicy, { kind: 'partner' }>): string {
  return policy.origins.length === 0 ? 'none yet' : policy.origins.map((rule) => rule.text).join(', ');
}

function fits(rule: OriginRule, url: URL): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (rule.protocol !== url.protocol || (rule.port !== '*' && rule.port !== port)) return false;
  return rule.wildcard ? url.hostname.endsWith(`.${rule.host}`) : url.hostname === rule.host;
}

/** IPv4-mapped IPv6 addresses are judged as the IPv4 they carry. */
export function addressProblem(policy: EgressPolicy, address: string, origin: string): string | undefined {
  if (policy.kind === 'open' || policy.granted.has(origin)) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `the host of ${origin} resolves to an address the sandbox cannot read`;
  }
  if (policy.networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return undefined;
  if (parsed.range() === 'unicast') return undefined;
  return `the host of ${origin} resolves to an address of a loopback, private, link-local or reserved network, which this hosted sandbox does not call for partner '${policy.partner}' unless the operator opens that network for it (egress.allowNetworks in the partners file)`;
}

/** Lets the sandbox call `origin` until the answer is called (a reference POS it started for a checklist run). */
export function grantOrigin(policy: EgressPolicy, url: string): () => void {
  if (policy.kind === 'open') return () => undefined;
  const key = originKey(new URL(url));
  policy.granted.set(key, (policy.granted.get(key) ?? 0) + 1);
  let taken = false;
  return () => {
    if (taken) return;
    taken = true;
    const left = (policy.granted.get(key) ?? 1) - 1;
    if (left <= 0) policy.granted.delete(key);
    else policy.granted.set(key, left);
  };
}

/** `fetch` held to the egress policy, made with node:http, whose connections take the guarded lookup and follow no redirect; on a laptop, the global fetch. */

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
      // A timeout reads as any other failure: a hosted sandbox does not tell them apart.
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

/** A URL checked before anything is made of it: its origin and every address it resolves to now; the connection is checked again later. */
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

/** The egress policy where a connection is made: the addresses judged in the lookup of the very connection, so DNS cannot answer one thing to the check and another to it; on a hosted sandbox a failure tells nothing of the network. */

/** Thrown (as a connection error) when the policy refuses an address DNS gave. */
export class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type GuardedLookup = (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => void;

export type GuardedTarget = { ok: true; url: URL; lookup: GuardedLookup | undefined } | { ok: false; problem: string };

/** Its URL and the lookup its connection must use (none on a laptop), or why it may not be made. */
export function guardTarget(policy: EgressPolicy, text: string, what: string): GuardedTarget {
  const checked = checkEgressUrl(policy, text, what);
  if (!checked.ok) return checked;
  if (policy.kind === 'open') return { ok: true, url: checked.url, lookup: undefined };
  const { url } = checked;
  const origin = originKey(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address in the URL is connected to without a lookup: judged here.
  if (isIP(host) !== 0) {
    const problem = addressProblem(policy, host, origin);
    return problem === undefined ? { ok: true, url, lookup: undefined } : { ok: false, problem };
  }
  const lookup: GuardedLookup = (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true, family: options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      // Every address must pass, not just the first: a name that answers a public and a private address is refused.
      const problem = addresses.length === 0 ? `the host of ${origin} resolves to no address` : addresses.map((one) => addressProblem(policy, one.address, origin)).find((found) => found !== undefined);
      if (problem !== undefined) return callback(new EgressRefused(problem), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return { ok: true, url, lookup };
}

/** A refusal by the policy says what to ask the operator for; on a laptop the network error is named, on a hosted sandbox every failure reads the same. */
export function failureMessage(policy: EgressPolicy, error: NodeJS.ErrnoException, url: URL, what: string): string {
  if (error instanceof EgressRefused) return `not sent: ${error.message}`;
  if (policy.kind !== 'open') return unreachedMessage(url, what);
  if (error.code === 'ECONNREFUSED') return `connection refused by ${url.host}: is the POS listening at ${url.origin}?`;
  if (error.code === 'ECONNRESET') return `the POS closed the connection without an answer (${error.code})`;
  if (error.code === 'ENOTFOUND') return `host ${url.hostname} not found`;
  return `${error.code ?? 'error'}: ${error.message}`;
}

/** A call that timed out, as the partner is told: in a hosted sandbox, the words of any other failure. */
export function timeoutMessage(policy: EgressPolicy, url: URL, what: string, timeoutMs: number): string {
  return policy.kind === 'open' ? `no answer within ${timeoutMs} ms` : unreachedMessage(url, what);
}

/** A hosted sandbox's one message for every call that got no answer. */
export const unreachedMessage = (url: URL, what: string) =>
  `no answer from ${what} at ${url.origin}: the connection failed, was cut, or no answer came in time (a hosted sandbox does not say which)`;
