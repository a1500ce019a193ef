/** The cases npm run fuzz sends, weighted: the property suite's generators, valid requests, and malformed HTTP. */
import fc from 'fast-check';
import type { Fixtures } from '../../server/fixtures/load-fixtures.js';
import type { Answer } from '../../server/test/fuzz/answer-check.js';
import { brokenSegment, controlCall, controlCases, eventsCases, idReadCases } from '../../server/test/fuzz/control-cases.js';
import { acceptedCases, deepCases, encodingCases, fieldCases, headerCases, hugeCases, posCase, cleanPosHeaders, type PosCaseContext } from '../../server/test/fuzz/pos-cases.js';
import { authorizationValue, junkToken, oddAlgToken, signedOddToken, timeClaimToken, tokenRuleBreach, validToken, type BuiltToken } from '../../server/test/fuzz/token-cases.js';
import type { WireCase } from '../../server/test/fuzz/wire-case.js';
import { rawCases, type RawCase } from './raw-cases.js';

/** One case: a request for the HTTP client or bytes for a bare socket, and what its answer must also be. */
export interface FuzzCase {
  endpoint: string;
  kind: string;
  wire?: WireCase;
  raw?: RawCase;
  /** success: a 2xx; refusal: anything but a 2xx. */
  expect?: 'success' | 'refusal';
  /** A rule of the endpoint beyond the envelope: what is wrong with the answer (`rule` names the rule, for grouping). */
  check?: (answer: Answer) => { rule: string; detail: string } | undefined;
}

/** Known ExternalIds: the fixture orders and those the stand-in POS hands out (FZ-1…). */
export function fuzzContext(fixtures: Fixtures, partner: { name: string; key: string }): PosCaseContext {
  return {
    posName: partner.name,
    key: partner.key,
    apiKey: fixtures.partner.apiKey,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    locations: fixtures.locations.map((location) => location.id),
    menuItems: Object.fromEntries(Object.entries(fixtures.menus).map(([id, menu]) => [id, menu.Items.map((item) => item.Id)])),
    externalIds: [...fixtures.orders.flatMap((order) => (order.ExternalId === undefined ? [] : [order.ExternalId])), ...Array.from({ length: 40 }, (_, i) => `FZ-${i + 1}`)],
  };
}

const wire = (expect?: FuzzCase['expect']) => (one: WireCase): FuzzCase => ({ endpoint: one.endpoint, kind: one.kind, wire: one, ...(expect ? { expect } : {}) });

/** A refund that is clean but for its token: accepted only if the token meets §5. */
function tokenCase(ctx: PosCaseContext, token: BuiltToken, authorization: string): FuzzCase {
  const one = posCase(ctx, 'refund', {
    token: token.token,
    body: Buffer.from(JSON.stringify({ ExternalId: ctx.externalIds[0] })),
    kind: token.signed ? 'token: signed, odd header or claims' : 'token: junk',
    headers: [['Authorization', authorization]],
  });
  const check = (answer: Answer) => {
    if (answer.status >= 300) return undefined;
    const breach = tokenRuleBreach(token, ctx);
    if (breach === undefined) return undefined;
    // Judged on the real clock after the answer: only an exp 10 s past must have been refused.
    if (breach === 'exp is past' && tokenRuleBreach(token, { ...ctx, nowSeconds: () => ctx.nowSeconds() - 10 }) === undefined) return undefined;
    return { rule: `accepts a token whose ${breach.split(' ')[0]} breaks §5`, detail: `accepted with ${answer.status} although ${breach}; header ${token.headerText}; claims ${token.payloadText}` };
  };
  return { endpoint: 'refund', kind: one.kind, wire: one, check };
}

export function caseMix(ctx: PosCaseContext, posOrderUrl: string): fc.Arbitrary<FuzzCase> {
  const control = { locations: ctx.locations, posOrderUrl };
  const asToken = (tokens: fc.Arbitrary<BuiltToken>) =>
    tokens.chain((token) => authorizationValue(token.token).map((authorization) => tokenCase(ctx, token, authorization)));
  const signedAsToken = (tokens: fc.Arbitrary<BuiltToken>) => tokens.map((token) => tokenCase(ctx, token, `Bearer ${token.token}`));
  const idReads = idReadCases.map(({ wire: one, id, read }): FuzzCase => ({
    endpoint: 'control',
    kind: one.kind,
    wire: one,
    check: (answer) => {
      if (answer.status !== 200) return undefined;
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        body = undefined;
      }
      const same = typeof body === 'object' && body !== null && read.same(body as Record<string, unknown>, id);
      if (same) return undefined;
      return { rule: `GET ${read.path} answers 200 with something else than the resource asked for`, detail: `answered 200 with ${JSON.stringify(answer.body.slice(0, 120))}, which is not the resource '${id}'` };
    },
  }));
  const brokenIds = fc
    .tuple(fc.constantFrom('/locations/{id}/menu', '/orders/{id}', '/faults/{id}', '/journal/{id}'), brokenSegment)
    .map(([path, segment]) => wire()(controlCall('GET', path.replace('{id}', segment), undefined, `control GET ${path} (broken percent-encoding)`)));
  const raw = rawCases({ host: '127.0.0.1', posHeaders: validToken(ctx, ctx.locations[0]).map((token) => cleanPosHeaders(ctx, token.token)) }).map(
    (one): FuzzCase => ({ endpoint: 'raw', kind: one.kind, raw: one }),
  );
  return fc.oneof(
    { weight: 250, arbitrary: fieldCases(ctx).map(wire()) },
    { weight: 150, arbitrary: headerCases(ctx).map(wire()) },
    { weight: 50, arbitrary: encodingCases(ctx).map(wire()) },
    { weight: 40, arbitrary: deepCases(ctx).map(wire()) },
    { weight: 3, arbitrary: hugeCases(ctx).map(wire()) },
    { weight: 80, arbitrary: acceptedCases(ctx).map(wire('success')) },
    { weight: 50, arbitrary: asToken(junkToken).map((one) => ({ ...one, expect: 'refusal' as const })) },
    { weight: 80, arbitrary: signedAsToken(signedOddToken(ctx, false)) },
    { weight: 20, arbitrary: signedAsToken(oddAlgToken(ctx)) },
    { weight: 30, arbitrary: signedAsToken(timeClaimToken(ctx)) },
    { weight: 100, arbitrary: controlCases(control).map(wire()) },
    { weight: 10, arbitrary: brokenIds },
    { weight: 20, arbitrary: idReads },
    { weight: 10, arbitrary: eventsCases.map(wire()) },
    { weight: 20, arbitrary: raw },
  );
}
