/**
 * Requests to the control API under /_sandbox (GET /_sandbox/openapi.json lists it): every route with odd ids in
 * the path (prototype names, broken percent-encoding), odd query strings, and hostile bodies for the routes that
 * take one (fault rules, new orders, tokens).
 */
import fc from 'fast-check';
import { CONTROL_MOUNT } from '../../control/control-api.js';
import { brokenJsonText, extraEntries, fieldText, jsonText, nastyString, objectText, oneTimeIn } from './nasty-text.js';
import { wireCase, type WireCase } from './wire-case.js';

export interface ControlContext {
  locations: readonly string[];
  /** Where a new order may be sent: the fuzzers' stand-in POS. */
  posOrderUrl?: string;
}

/** A control API call with a JSON body (or none). */
export function controlCall(method: string, path: string, body?: unknown, kind = 'control call'): WireCase {
  return wireCase({
    endpoint: 'control',
    kind,
    method,
    path: `${CONTROL_MOUNT}${path}`,
    headers: body === undefined ? [] : [['Content-Type', 'application/json']],
    family: 'order',
    ...(body === undefined ? {} : { body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) }),
  });
}

/** Path segments that are not ids but decode fine: prototype names, odd characters, 5,000 characters (never empty: /orders/ is the list). */
export const oddSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', 'length'),
  fc.constantFrom('%00', '%2F', '%2e%2e', '..', '.', '%20', '%5F%5Fproto%5F%5F', '~', "'", '"', '*', '%25'),
  fc.integer({ min: 256, max: 5000 }).map((n) => 'a'.repeat(n)),
  nastyString.map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'))),
).filter((segment) => segment !== '');

/** Percent-encoding that does not decode: a lone %, a bad hex digit, a cut or overlong UTF-8 sequence, a surrogate. */
export const brokenSegment: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('%', '%zz', '%E0%A4%A', '%ff', '%C0%80', '%ED%A0%80', '%E2%82', '%F4%90%80%80', '%%'), fc.stringMatching(/^[a-z0-9-]{0,6}$/))
  .map(([broken, around]) => `${around}${broken}${around}`);

/** A known id of a route, or an odd segment; the known ones keep the fuzzers honest about real lookups. */
const segmentFor = (known: readonly string[], broken: boolean) =>
  fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...known) }, { weight: 3, arbitrary: oddSegment }, ...(broken ? [{ weight: 2, arbitrary: brokenSegment }] : []));

const queryValue = fc.oneof(nastyString.map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'))), fc.constantFrom('%zz', '', '1', '-1', '1e309', 'true', '4xx', 'j-000001'));
const queryName = fc.oneof(
  fc.constantFrom('location', 'status', 'template', 'externalId', 'path', 'since', 'after', 'limit', 'direction', 'order', 'fault', 'wait', 'types'),
  fc.constantFrom('__proto__', 'constructor', 'a[b]', '__proto__[polluted]', 'x', '%zz', ''),
);
const queryString = oneTimeIn(
  2,
  fc.array(fc.tuple(queryName, queryValue), { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`),
  '',
);

const faultRuleText: fc.Arbitrary<string> = fc
  .record({
    id: fc.option(fieldText(fc.constantFrom('"fz-1"', '"fz-2"', '"x"')), { nil: undefined }),
    match: fc.option(
      fieldText(
        fc.record({ path: fieldText(fc.constantFrom('"/order/refund"', '"/never/*"', '"/*"')), method: fc.option(fieldText(fc.constantFrom('"POST"', '"PUT"')), { nil: undefined }) })
          .map(({ path, method }) => objectText([['path', path], ['method', method]])),
      ),
      { nil: undefined },
    ),
    action: fieldText(
      fc.record({
        kind: fieldText(fc.constantFrom('"status"', '"malformed"', '"rate-limit"', '"expired-token"', '"bad-signature"', '"wrong-audience"', '"duplicate"', '"bogus"')),
        status: fc.option(fieldText(fc.constantFrom('503', '400', '599', '200', '600', '"500"')), { nil: undefined }),
        body: fc.option(jsonText, { nil: undefined }),
      }).map(({ kind, status, body }) => objectText([['kind', kind], ['status', status], ['body', body]])),
    ),
    times: fc.option(fieldText(fc.constantFrom('1', '2')), { nil: undefined }),
    probability: fc.option(fieldText(fc.constantFrom('0.5', '1', '0', '1e-400', '2')), { nil: undefined }),
    extra: extraEntries,
  })
  .map(({ id, match, action, times, probability, extra }) => objectText([['id', id], ['match', match], ['action', action], ['times', times], ['probability', probability], ...extra]));

function orderBodyText(ctx: ControlContext): fc.Arbitrary<string> {
  const quoted = (values: string[]) => fc.constantFrom(...values.map((value) => JSON.stringify(value)));
  return fc
    .record({
      template: fieldText(quoted(['standard', 'hub', 'kiosk', 'bogus', '__proto__', 'constructor', 'toString'])),
      locationId: fc.option(fieldText(quoted([...ctx.locations, '__proto__'])), { nil: undefined }),
      orderId: fc.option(fieldText(quoted(['fz-order-1', 'ord-std-0001', 'a'.repeat(65), '../x'])), { nil: undefined }),
      eatIn: fc.option(fieldText(fc.constantFrom('true', 'false')), { nil: undefined }),
      pagerNumber: fc.option(fieldText(quoted(['12', ' '])), { nil: undefined }),
      posOrderUrl: fc.option(fieldText(quoted([...(ctx.posOrderUrl ? [ctx.posOrderUrl] : []), 'http://127.0.0.1:9/order', 'ftp://x', 'not a url'])), { nil: undefined }),
      extra: extraEntries,
    })
    .map((fields) => objectText([...Object.entries(fields).filter(([key]) => key !== 'extra'), ...fields.extra] as Array<[string, string | undefined]>));
}

const tokenBodyText = (ctx: ControlContext) =>
  fc
    .record({ locationId: fieldText(fc.constantFrom(...ctx.locations.map((id) => JSON.stringify(id)))), ttl: fc.option(fieldText(fc.constantFrom('1', '3600', '86400', '86401', '0', '1.5', '"60"')), { nil: undefined }), extra: extraEntries })
    .map(({ locationId, ttl, extra }) => objectText([['locationId', locationId], ['ttl', ttl], ...extra]));

const checkBodyText = fc
  .record({ token: fieldText(fc.constantFrom('"a.b.c"', '"Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln"', '""', '42', 'null')), extra: extraEntries })
  .map(({ token, extra }) => objectText([['token', token], ...extra]));

const checklistRunText = fc
  .record({
    driver: fc.oneof(
      fc.constant<Array<[string, string | undefined]>>([['referencePos', 'true']]),
      fieldText(fc.constantFrom('"http://127.0.0.1:1"', '"ftp://x"', '""', '7')).map((url): Array<[string, string | undefined]> => [['driverUrl', url]]),
    ),
    capabilities: fc.option(fieldText(fc.constantFrom('["refund"]', '["hub","kiosk"]', '["teleport"]', '"refund"', '[]')), { nil: undefined }),
    windowMs: fc.option(fieldText(fc.constantFrom('0', '300', '-1', '60001', '"5"')), { nil: undefined }),
    extra: extraEntries,
  })
  .map(({ driver, capabilities, windowMs, extra }) => objectText([...driver, ['capabilities', capabilities], ['windowMs', windowMs], ...extra]));

/** A body for a route that reads one: its own shape with fields wrong, any JSON, or no JSON. */
const bodyOf = (shaped: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: jsonText }, { weight: 1, arbitrary: brokenJsonText });

interface ControlRoute {
  method: string;
  /** With `{id}` where a segment goes. */
  path: string;
  ids?: readonly string[];
  body?: fc.Arbitrary<string>;
}

/** Adding or removing fault rules and reset change the answers to every later call, whatever method a case was aimed at. */
function changesWhatOthersSee(method: string, path: string): boolean {
  return (method === 'POST' && (path === '/faults' || path === '/reset')) || (method === 'DELETE' && path.startsWith('/faults'));
}

export function controlRoutes(ctx: ControlContext): ControlRoute[] {
  return [
    { method: 'GET', path: '/health' },
    { method: 'POST', path: '/reset' },
    { method: 'GET', path: '/partners' },
    { method: 'GET', path: '/locations' },
    { method: 'GET', path: '/locations/{id}/menu', ids: ctx.locations },
    { method: 'GET', path: '/orders' },
    { method: 'POST', path: '/orders', body: bodyOf(orderBodyText(ctx)) },
    { method: 'GET', path: '/orders/{id}', ids: ['ord-std-0001', 'ord-kiosk-0001'] },
    { method: 'POST', path: '/orders/{id}/resend', ids: ['ord-std-0003'] },
    { method: 'GET', path: '/faults' },
    { method: 'POST', path: '/faults', body: bodyOf(fc.oneof(faultRuleText, fc.array(faultRuleText, { maxLength: 3 }).map((rules) => `[${rules.join(',')}]`))) },
    { method: 'DELETE', path: '/faults' },
    { method: 'GET', path: '/faults/{id}', ids: ['fz-1', 'fault-1'] },
    { method: 'DELETE', path: '/faults/{id}', ids: ['fz-1', 'fault-1'] },
    { method: 'GET', path: '/refunds' },
    { method: 'GET', path: '/journal' },
    { method: 'GET', path: '/journal.har' },
    { method: 'GET', path: '/journal/{id}', ids: ['j-000001', 'j-000002'] },
    { method: 'POST', path: '/tokens', body: bodyOf(tokenBodyText(ctx)) },
    { method: 'POST', path: '/tokens/check', body: bodyOf(checkBodyText) },
    { method: 'GET', path: '/fault-scripts' },
    { method: 'GET', path: '/checklist/runs' },
    { method: 'POST', path: '/checklist/runs', body: bodyOf(checklistRunText) },
    { method: 'GET', path: '/checklist/runs/{id}', ids: ['run-1', 'run-0'] },
    { method: 'GET', path: '/reports' },
    { method: 'GET', path: '/reports/{id}/report.html', ids: ['2026-11-21T10-00-00-000Z-1a2b3c', '..'] },
    { method: 'GET', path: '/openapi.json' },
    { method: 'GET', path: '/no-such-route' },
  ];
}

/**
 * Any control route with odd ids and query strings, and odd bodies where a route reads one; sometimes the wrong
 * method, sometimes a stray body. `brokenIds` also sends ids whose percent-encoding does not decode.
 */
export function controlCases(ctx: ControlContext, options: { brokenIds?: boolean; onlyBodies?: boolean } = {}): fc.Arbitrary<WireCase> {
  const routes = controlRoutes(ctx).filter((route) => !options.onlyBodies || route.body !== undefined);
  const one = (route: ControlRoute) =>
    fc
      .record({
        id: segmentFor(route.ids ?? ['x'], options.brokenIds ?? false),
        query: queryString,
        body: route.body ?? oneTimeIn(5, jsonText, undefined),
        method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') }),
        contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/json; charset=bogus'),
      })
      .map(({ id, query, body, method, contentType }) => {
        const path = `${CONTROL_MOUNT}${route.path.replace('{id}', id)}${query}`;
        return wireCase({
          endpoint: 'control',
          kind: `control ${route.method} ${route.path}`,
          method,
          path,
          headers: body === undefined ? [] : [['Content-Type', contentType]],
          family: 'order',
          ...(body === undefined ? {} : { body: Buffer.from(body, 'utf8') }),
          ...(changesWhatOthersSee(method, route.path) ? { exclusive: true } : {}),
        });
      });
  return fc.oneof(...routes.map(one));
}

/** GET /_sandbox/events with a types filter that names no event type: answered 400 at once, never a stream. */
export const eventsCases: fc.Arbitrary<WireCase> = fc
  .oneof(nastyString, fc.constant(''))
  .map((junk) => controlCall('GET', `/events?types=zz-${encodeURIComponent(junk.replace(/[\ud800-\udfff]/g, '?'))}`, undefined, 'control GET /events'));

/** Reads of one resource by id, and what a 200 must then carry to be that resource. */
export const ID_READS: Array<{ path: string; known: string[]; same: (body: Record<string, unknown>, id: string) => boolean }> = [
  { path: '/locations/{id}/menu', known: ['loc-std-001', 'loc-kiosk-001'], same: (body: Record<string, unknown>, id: string) => body.LocationId === id && Array.isArray(body.Items) },
  { path: '/orders/{id}', known: ['ord-std-0001'], same: (body: Record<string, unknown>, id: string) => body.OrderId === id },
  { path: '/faults/{id}', known: ['fz-1'], same: (body: Record<string, unknown>, id: string) => body.id === id },
  { path: '/journal/{id}', known: ['j-000001'], same: (body: Record<string, unknown>, id: string) => body.id === id },
];

/** GETs of one resource by an id that decodes: a known one, a prototype name, odd characters. */
export const idReadCases: fc.Arbitrary<{ wire: WireCase; id: string; read: (typeof ID_READS)[number] }> = fc.oneof(
  ...ID_READS.map((read) =>
    segmentFor(read.known, false).map((segment) => ({
      wire: controlCall('GET', read.path.replace('{id}', segment), undefined, `control GET ${read.path}`),
      id: decodeURIComponent(segment),
      read,
    })),
  ),
);
