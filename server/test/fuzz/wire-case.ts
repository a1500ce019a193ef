/** One request as the fuzzers send it (any bytes, headers repeated or odd), printed short and replayable as curl. */
import fc from 'fast-check';
import type { EnvelopeFamily } from '../../errors.js';

/** Which API a case is aimed at: the counts of npm run fuzz are kept per endpoint. */
export type FuzzEndpoint = 'refund' | 'status' | 'menu' | 'control' | 'other';

export interface WireCase {
  endpoint: FuzzEndpoint;
  /** How the case was built (`deep array`, `token: signed weird claims`…): failures are grouped by it. */
  kind: string;
  method: string;
  /** The request target as sent, query string included. */
  path: string;
  /** Name/value pairs in order; a name may repeat. Host and Content-Length are added by the sender when absent. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** How to rebuild a body too big to print, e.g. `'[' × 4000 + ']' × 4000`. */
  bodyRecipe?: string;
  /** The envelope a 4xx must use: the endpoint's family (§2.3). */
  family: EnvelopeFamily;
  /** Changes what every later request sees (fault rules, reset): npm run fuzz sends it alone and cleans up after. */
  exclusive?: boolean;
}

const PREVIEW = 160;

/** A case that prints as one short line in a fast-check counterexample instead of a megabyte of body. */
export function wireCase(fields: WireCase): WireCase {
  return Object.defineProperty(fields, fc.toStringMethod, { value: () => caseSummary(fields), enumerable: false });
}

/** `PUT /v2/menu [deep object] headers… body: {"a":{"a":… (80000 bytes)`. */
export function caseSummary(wire: WireCase): string {
  const headers = wire.headers.map(([name, value]) => `${name}: ${shorten(value, 80)}`).join(' | ');
  const body = wire.body === undefined ? 'no body' : `body ${wire.bodyRecipe ?? JSON.stringify(shorten(wire.body.toString('utf8'), PREVIEW))} (${wire.body.length} bytes)`;
  return `${wire.method} ${shorten(wire.path, 200)} [${wire.kind}] {${headers}} ${body}`;
}

/** A curl command that sends the same request; a body too long to print goes to `bodyFile` (written by the caller). */
export function curlOf(wire: WireCase, baseUrl: string, bodyFile = 'case-body.bin'): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const parts = [`curl -i -X ${wire.method} ${quote(baseUrl + wire.path)}`];
  for (const [name, value] of wire.headers) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (wire.body !== undefined) {
    const text = wire.body.toString('utf8');
    const controls = [...text].some((char) => char.charCodeAt(0) < 0x20 && char !== '\t' && char !== '\n');
    const printable = wire.body.length <= 400 && Buffer.from(text, 'utf8').equals(wire.body) && !controls;
    parts.push(printable ? `--data-binary ${quote(text)}` : `--data-binary @${bodyFile}`);
  }
  return parts.join(' \\\n  ');
}

/** The case as JSON (body in base64), for a replay file. */
export function caseToJson(wire: WireCase): string {
  const { body, ...rest } = wire;
  return JSON.stringify({ ...rest, ...(body === undefined ? {} : { bodyBase64: body.toString('base64') }) }, null, 2);
}

export function caseFromJson(text: string): WireCase {
  const { bodyBase64, ...rest } = JSON.parse(text) as WireCase & { bodyBase64?: string };
  return wireCase({ ...rest, ...(bodyBase64 === undefined ? {} : { body: Buffer.from(bodyBase64, 'base64') }) });
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
