/** The egress policy where a connection is made: the addresses judged in the lookup of the very connection, so DNS cannot answer one thing to the check and another to it; on a hosted sandbox a failure tells nothing of the network. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { addressProblem, checkEgressUrl, originKey, type EgressPolicy } from './egress.js';

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
