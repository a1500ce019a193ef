/**
 * Whole requests to the three POS endpoints: the bodies of pos-bodies.ts with clean headers, and clean bodies with
 * odd headers (content types, charsets, Content-Encoding with and without a compressed body, doubled headers).
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { EnvelopeFamily } from '../../errors.js';
import { parseFaultHeader } from '../../faults/fault-rules.js';
import { deepBodies, fieldBodies, hugeBodies, validBodyText, validMenuBody, type BodyContext, type BuiltBody, type PosEndpoint } from './pos-bodies.js';
import { brokenBytes, nastyString, nonBlankString, oneTimeIn, withBrokenBytes } from './nasty-text.js';
import { validToken, type TokenContext } from './token-cases.js';
import { wireCase, type WireCase } from './wire-case.js';

export interface PosCaseContext extends TokenContext, BodyContext {
  apiKey?: string;
}

export const POS_ENDPOINTS: Record<PosEndpoint, { method: string; path: string; family: EnvelopeFamily; mounts: string[] }> = {
  refund: { method: 'POST', path: '/order/refund', family: 'order', mounts: ['/v2', '', '/v1/pos/openapi'] },
  status: { method: 'POST', path: '/order/status', family: 'order', mounts: ['/v2', '', '/v1/pos/openapi'] },
  menu: { method: 'PUT', path: '/menu', family: 'menu', mounts: ['/v2', '', '/v1/pos/openapi'] },
};

/** Authorization, location, x-api-key, version and JSON content type, as a clean POS call sends them. */
export function cleanPosHeaders(ctx: PosCaseContext, token: string, location = ctx.locations[0]!): Array<[string, string]> {
  return [
    ['Authorization', `Bearer ${token}`],
    ['x-service-locationid', location],
    ['x-api-key', ctx.apiKey ?? 'key'],
    ['x-api-version', '2'],
    ['Content-Type', 'application/json'],
  ];
}

/** A POS case: `headers` replaces the clean ones of the same name (undefined drops one) and adds the rest. */
export function posCase(
  ctx: PosCaseContext,
  endpoint: PosEndpoint,
  parts: { token: string; body?: Buffer; kind: string; recipe?: string; headers?: Array<[string, string | undefined]>; mount?: string; query?: string },
): WireCase {
  const { method, path, family, mounts } = POS_ENDPOINTS[endpoint];
  const replaced = new Set((parts.headers ?? []).map(([name]) => name.toLowerCase()));
  const headers: Array<[string, string]> = [
    ...cleanPosHeaders(ctx, parts.token).filter(([name]) => !replaced.has(name.toLowerCase())),
    ...(parts.headers ?? []).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ];
  return wireCase({
    endpoint,
    kind: parts.kind,
    method,
    path: `${parts.mount ?? mounts[0]}${path}${parts.query ?? ''}`,
    headers,
    family,
    ...(parts.body === undefined ? {} : { body: parts.body }),
    ...(parts.recipe === undefined ? {} : { bodyRecipe: parts.recipe }),
  });
}

const ENDPOINTS: PosEndpoint[] = ['refund', 'status', 'menu'];

/** One arbitrary per endpoint, built once (building arbitraries inside chain() for every case costs more than the case). */
const perEndpoint = (build: (endpoint: PosEndpoint) => fc.Arbitrary<WireCase>) => fc.oneof(...ENDPOINTS.map(build));

const withBody = (ctx: PosCaseContext, bodies: (endpoint: PosEndpoint, ctx: BodyContext) => fc.Arbitrary<BuiltBody>, breakBytes: boolean) => {
  const token = validToken(ctx, ctx.locations[0]);
  return perEndpoint((endpoint) =>
    fc
      .record({ token, body: bodies(endpoint, ctx), mount: fc.constantFrom(...POS_ENDPOINTS[endpoint].mounts), broken: breakBytes ? brokenBytes : fc.constant(null) })
      .map(({ token, body, mount, broken }) =>
        posCase(ctx, endpoint, { token: token.token, body: withBrokenBytes(body.text, broken), kind: body.kind, recipe: body.recipe, mount }),
      ),
  );
};

/** Bodies with every field wrong in turn, any JSON, not JSON, bytes that are not UTF-8. */
export const fieldCases = (ctx: PosCaseContext) => withBody(ctx, fieldBodies, true);
/** Nesting 1 to 20,000 deep. */
export const deepCases = (ctx: PosCaseContext) => withBody(ctx, deepBodies, false);
/** Strings and arrays up to a little over the 1 MiB limit. */
export const hugeCases = (ctx: PosCaseContext) => withBody(ctx, hugeBodies, false);

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8', 'application/json; charset=utf-16',
  'application/json; charset=utf-16le', 'application/json; charset=latin1', 'application/json; charset=iso-8859-1', 'application/json; charset=us-ascii',
  'application/json; charset=utf-32', 'application/json; charset=bogus', 'application/json; charset="utf-8"', 'application/json; charset=',
  'application/json; boundary=x', 'application/json, text/plain', 'text/plain', 'text/json', 'application/problem+json', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', '', ';', 'application/', '*/*',
];

/** Header values the HTTP client can send: visible Latin-1, spaces and tabs; up to 4 KB (Node allows 16 KiB of headers in all). */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyString.map((text) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 4000 }).map((n) => 'x'.repeat(n)) },
);
const headerName = fc.oneof(
  fc.constantFrom('X-Service-LocationId', 'X-SERVICE-LOCATIONID', 'authorization', 'x-request-id', 'x-api-version', 'api-version', 'x-api-key', '__proto__', 'constructor', 'x-sandbox-findings', 'accept', 'accept-charset', 'origin', 'x-forwarded-for'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
);
const badFaultHeader = fc.oneof(fc.constantFrom('status=200', 'status=600', 'delay=-1', 'delay=999999999', 'drop=1', 'nonsense', '', ' '), nastyString).filter((value) => !parseFaultHeader(value).ok);

/** A clean body with odd headers: content types and charsets, doubled Authorization, odd locations, 8 KB values, junk query strings. */
export function headerCases(ctx: PosCaseContext): fc.Arbitrary<WireCase> {
  const token = validToken(ctx, ctx.locations[0]);
  return perEndpoint((endpoint) =>
    fc
      .record({
        token,
        // null: no Content-Type header at all.
        contentType: fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(null) }),
        // null: no location header at all.
        location: fc.oneof(
          { weight: 3, arbitrary: fc.constant(ctx.locations[0]!) },
          { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...ctx.locations, ' ', '', `${ctx.locations[0]},${ctx.locations[1]}`), headerValue) },
          { weight: 1, arbitrary: fc.constant(null) },
        ),
        secondAuth: oneTimeIn(6, fc.constantFrom('Bearer x.y.z', 'Basic Zm9vOmJhcg==', ''), undefined),
        extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
        fault: oneTimeIn(10, badFaultHeader, undefined),
        query: oneTimeIn(6, fc.constantFrom('?', '?a=1&a=2', '?access_token=x', '?token=eyJ', `?key=${ctx.key}`, '?__proto__[x]=1', '?%zz=1', '?ExternalId=x'), undefined),
      })
      .map(({ token, contentType, location, secondAuth, extra, fault, query }) => {
        const headers: Array<[string, string | undefined]> = [
          ['Content-Type', contentType ?? undefined],
          ['x-service-locationid', location ?? undefined],
        ];
        if (secondAuth !== undefined) headers.push(['Authorization', `Bearer ${token.token}`], ['Authorization', secondAuth]);
        if (fault !== undefined) headers.push(['x-sandbox-fault', fault.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')]);
        headers.push(...withinHeaderLimit(extra, 10_000));
        return posCase(ctx, endpoint, { token: token.token, body: Buffer.from(validBodyText(endpoint, ctx)), kind: 'headers', headers, query });
      }),
  );
}

/** Extra headers cut to `budget` bytes in all: over Node's 16 KiB limit the answer is Node's own 431 (the raw-socket cases test that). */
function withinHeaderLimit(extra: Array<[string, string]>, budget: number): Array<[string, string]> {
  let left = budget;
  return extra.map(([name, value]) => {
    const kept = value.slice(0, Math.max(0, left));
    left -= kept.length + name.length;
    return [name, kept];
  });
}

/** 2 MiB of spaces: a few kilobytes compressed, twice the body limit inflated. */
const BOMB = Buffer.alloc(2 * 1024 * 1024, 0x20);

const ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'x-gzip', 'GZIP', 'gzip, identity', 'identity, gzip', 'compress', 'bogus', ''];

const compressed = new Map<string, Buffer>();

/** The body compressed as the first coding of `encoding` says (kept: brotli over 2 MiB costs more than the request). */
function compress(encoding: string, body: Buffer): Buffer {
  const first = encoding.split(',')[0]!.trim().toLowerCase();
  const key = `${first}\n${body.length}\n${body.subarray(0, 200).toString('latin1')}`;
  const known = compressed.get(key);
  if (known) return known;
  const bytes =
    first === 'gzip' || first === 'x-gzip' ? gzipSync(body) : first === 'deflate' ? deflateSync(body) : first === 'br' ? brotliCompressSync(body) : body;
  compressed.set(key, bytes);
  return bytes;
}

/** Content-Encoding of every kind, over a body that is compressed that way, plain, or a small bomb of 2 MiB inflated. */
export function encodingCases(ctx: PosCaseContext): fc.Arbitrary<WireCase> {
  const token = validToken(ctx, ctx.locations[0]);
  return perEndpoint((endpoint) =>
    fc
      .record({ token, encoding: fc.constantFrom(...ENCODINGS), body: fc.constantFrom('compressed', 'plain', 'bomb', 'empty') })
      .map(({ token, encoding, body }) => {
        const plain = Buffer.from(validBodyText(endpoint, ctx));
        const bytes = body === 'compressed' ? compress(encoding, plain) : body === 'bomb' ? compress(encoding, BOMB) : body === 'empty' ? Buffer.alloc(0) : plain;
        return posCase(ctx, endpoint, { token: token.token, body: bytes, kind: `content-encoding ${encoding || '(empty)'}: ${body} body`, headers: [['Content-Encoding', encoding]] });
      }),
  );
}

/** Requests §4.1 and §4.2 accept: any ExternalId that is not blank; a menu update of known items with whole prices. */
export function acceptedCases(ctx: PosCaseContext): fc.Arbitrary<WireCase> {
  const externalId = fc.oneof(fc.constantFrom(...ctx.externalIds), nonBlankString);
  const refunds = ctx.locations.map((at) =>
    fc
      .record({ token: validToken(ctx, at), externalId, mount: fc.constantFrom(...POS_ENDPOINTS.refund.mounts) })
      .map(({ token, externalId, mount }) =>
        posCase(ctx, 'refund', { token: token.token, body: Buffer.from(JSON.stringify({ ExternalId: externalId })), kind: 'valid refund', mount, headers: [['x-service-locationid', at]] }),
      ),
  );
  const menus = ctx.locations.map((at) =>
    fc
      .record({ token: validToken(ctx, at), body: validMenuBody(ctx, at), mount: fc.constantFrom(...POS_ENDPOINTS.menu.mounts) })
      .map(({ token, body, mount }) => posCase(ctx, 'menu', { token: token.token, body: Buffer.from(body), kind: 'valid menu update', mount, headers: [['x-service-locationid', at]] })),
  );
  return fc.oneof(...refunds, ...menus);
}
