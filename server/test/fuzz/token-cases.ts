/**
 * Arbitraries of POS → service tokens (§5): JWT-shaped junk, and tokens signed with the sandbox's own key over odd
 * headers and claims (so the signature passes and the claims are what is tested), plus the §5 model they are judged by.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { CLOCK_TOLERANCE_S, SERVICE_AUDIENCE } from '../../tokens/pos-token-rules.js';
import { extraEntries, jsonText, nastyString, objectText, oneTimeIn } from './nasty-text.js';

export interface TokenContext {
  posName: string;
  /** The partner's non-prod key: tokens signed with it pass the signature check. */
  key: string;
  /** The sandbox's clock, in seconds. */
  nowSeconds: () => number;
  /** Locations a token's sub may name. */
  locations: readonly string[];
}

/** A token as text plus the header and payload it was built from (JSON text, possibly not JSON at all). */
export interface BuiltToken {
  token: string;
  headerText?: string;
  payloadText?: string;
  signed: boolean;
}

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** header.payload.signature with HS256 over the exact texts given: duplicate keys and __proto__ survive. */
export function signTokenText(headerText: string, payloadText: string, key: string): string {
  const input = `${b64url(headerText)}.${b64url(payloadText)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

const b64urlChars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''));
const segment = fc.oneof(
  fc.string({ unit: b64urlChars, maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('A', '=', '+', '/', '.', ' ', '~', 'é'), maxLength: 8 }),
  jsonText.map(b64url),
);

/** Anything shaped more or less like a JWT: random segments, junk JSON, odd separators, 8 KB of one letter. */
export const jwtShapedText: fc.Arbitrary<string> = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.')),
  fc.constantFrom('', '.', '..', '...', 'a.b.c', 'eyJ.eyJ.', 'eyJhbGciOiJub25lIn0.eyJ9.', 'null', 'undefined', '[object Object]'),
  fc.integer({ min: 1, max: 8000 }).map((n) => 'a'.repeat(n)),
  fc.tuple(jsonText, jsonText, segment).map(([header, payload, signature]) => `${b64url(header)}.${b64url(payload)}.${signature}`),
);

const ALGS = ['"HS256"', '"hs256"', '"none"', '"None"', '"NONE"', '"RS256"', '"ES256"', '"PS256"', '"HS512"', '""', 'null', '123', '["HS256"]',
  '{"toString":"HS256"}', '{"toString":null}', '{"valueOf":1}', '{}', 'true', '"HS256 "', '"HS256\\u0000"'];
const KIDS = ['"../../../../dev/null"', '"/etc/passwd"', `"' OR 1=1 --"`, '"k1"', '123', '{"a":1}', `"${'k'.repeat(2000)}"`, '""'];
const CRITS = ['["b64"]', '["x-custom"]', '["exp"]', '["http://example.com/ext"]', '"b64"', '[]', '[1]', 'null', '{}', '["alg"]'];
const OTHER_HEADER = ['"jku":"http://evil.invalid/jwks"', '"x5u":"http://evil.invalid/x5u"', '"jwk":{}', '"b64":false', '"zip":"DEF"', '"cty":"JWT"', '"enc":"A128GCM"'];

/**
 * A JOSE header as text, with odd typ, kid, crit and extras; `oddAlg` also makes alg odd (objects, arrays, none, RS256,
 * a second alg before it). Apart, each kind of oddity gets its own property, so one bug does not hide the other.
 */
export const joseHeaderText = (oddAlg: boolean): fc.Arbitrary<string> => fc
  .record({
    alg: oddAlg ? fc.oneof({ weight: 1, arbitrary: fc.constant('"HS256"') }, { weight: 3, arbitrary: fc.constantFrom(...ALGS) }, { weight: 1, arbitrary: jsonText }) : fc.constant('"HS256"'),
    algTwice: oddAlg ? oneTimeIn(4, fc.constantFrom(...ALGS), null) : fc.constant(null),
    typ: fc.option(fc.constantFrom('"JWT"', '"jwt"', '"at+jwt"', '1', 'null'), { freq: 3 }),
    kid: oneTimeIn(3, fc.constantFrom(...KIDS), null),
    crit: oneTimeIn(5, fc.constantFrom(...CRITS), null),
    other: fc.subarray(OTHER_HEADER, { maxLength: 2 }),
    extra: extraEntries,
  })
  .map(({ alg, algTwice, typ, kid, crit, other, extra }) => {
    const entries: Array<[string, string | undefined]> = [['alg', alg]];
    if (algTwice !== null) entries.unshift(['alg', algTwice]);
    entries.push(['typ', typ ?? undefined], ['kid', kid ?? undefined], ['crit', crit ?? undefined], ...extra);
    const text = objectText(entries);
    return other.length === 0 ? text : `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${other.join(',')}}`;
  });

/** A claim: usually right, sometimes a wrong type or value, sometimes missing. */
const claim = (valid: fc.Arbitrary<string>, wrong: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 3, arbitrary: wrong }, { weight: 1, arbitrary: jsonText }, { weight: 1, arbitrary: fc.constant(undefined) });

const timeOffsets = (now: () => number, offsets: number[]) => fc.constantFrom(...offsets).map((offset) => String(now() + offset));

/** The six §5 claims as text, each sometimes wrong, plus odd extra claims (iat junk, __proto__, a claim twice). */
export function payloadText(ctx: TokenContext): fc.Arbitrary<string> {
  const now = ctx.nowSeconds;
  const str = (values: string[]) => fc.constantFrom(...values.map((value) => JSON.stringify(value)));
  return fc
    .record({
      sub: claim(str([...ctx.locations]), fc.oneof(str(['', '  ', 'LOC-STD-001', 'loc-unknown']), nastyString.map((s) => JSON.stringify(s)))),
      jti: claim(fc.uuid().map((id) => JSON.stringify(`jti-${id}`)), fc.oneof(str(['', ' ']), fc.constantFrom('1', '[]', '{}', 'null'))),
      nbf: claim(
        timeOffsets(now, [-10, 0, 60, -3600]),
        fc.oneof(
          timeOffsets(now, [61, 3600, 0.5]),
          fc.constantFrom('1e309', '-0', 'null', '[]', '{}', '1e11', '100000000001', `"${now()}"`, `${now()}.5`, `${now() * 1000}`),
        ),
      ),
      exp: claim(
        timeOffsets(now, [600, 1, -59, 86_400]),
        fc.oneof(
          timeOffsets(now, [-60, -61, -3600, -10]),
          fc.constantFrom('1e309', '1e300', '-0', 'null', '[]', `"${now() + 600}"`, `${now() + 600}.5`, `${(now() + 600) * 1000}`, '100000000001'),
        ),
      ),
      iss: claim(str([ctx.posName]), fc.oneof(str([SERVICE_AUDIENCE, ctx.posName.toUpperCase(), ` ${ctx.posName}`, '']), fc.constantFrom(`[${JSON.stringify(ctx.posName)}]`))),
      aud: claim(str([SERVICE_AUDIENCE]), fc.oneof(str([ctx.posName, '', SERVICE_AUDIENCE.toUpperCase()]), fc.constantFrom(`[${JSON.stringify(SERVICE_AUDIENCE)}]`))),
      extra: fc.array(
        fc.oneof(
          fc.tuple(fc.constantFrom('iat', '__proto__', 'constructor', 'sub', 'aud', 'exp', 'nbf', 'scope', 'azp'), jsonText),
          fc.tuple(fc.constantFrom('iat'), fc.constantFrom('"x"', '1e309', '-1', 'null')),
        ),
        { maxLength: 2 },
      ),
    })
    .map(({ extra, ...claims }) => objectText([...Object.entries(claims), ...extra]));
}

/** Junk in the Authorization header's token place. */
export const junkToken: fc.Arbitrary<BuiltToken> = jwtShapedText.map((token) => ({ token, signed: false }));

/**
 * A token signed with the partner's key: an odd header (alg too, when `oddAlg`) over clean claims, a clean header
 * over odd claims, or both odd. Keeping one side clean lets a bug of the other side show on its own.
 */
export function signedOddToken(ctx: TokenContext, oddAlg: boolean): fc.Arbitrary<BuiltToken> {
  const cleanHeader = fc.constantFrom('{"alg":"HS256","typ":"JWT"}', '{"alg":"HS256"}');
  return fc
    .oneof(fc.tuple(joseHeaderText(oddAlg), cleanClaims(ctx)), fc.tuple(cleanHeader, payloadText(ctx)), fc.tuple(joseHeaderText(oddAlg), payloadText(ctx)))
    .map(([header, payload]) => signed(ctx, header, payload));
}

/** A token signed with the partner's key whose header is odd (alg above all) and whose claims are clean. */
export function oddAlgToken(ctx: TokenContext): fc.Arbitrary<BuiltToken> {
  return fc.tuple(joseHeaderText(true), cleanClaims(ctx)).map(([header, payload]) => signed(ctx, header, payload));
}

const cleanClaims = (ctx: TokenContext) => validToken(ctx).map((token) => token.payloadText!);
const signed = (ctx: TokenContext, header: string, payload: string): BuiltToken => ({
  token: signTokenText(header, payload, ctx.key),
  headerText: header,
  payloadText: payload,
  signed: true,
});

/** A token §5 accepts, with harmless variations: typ or not, a kid, extra string claims, claims in any order. */
export function validToken(ctx: TokenContext, location?: string): fc.Arbitrary<BuiltToken> {
  const now = ctx.nowSeconds;
  return fc
    .record({
      typ: fc.boolean(),
      kid: fc.option(fc.stringMatching(/^[a-z0-9-]{1,16}$/), { nil: undefined }),
      sub: location === undefined ? fc.constantFrom(...ctx.locations) : fc.constant(location),
      jti: fc.uuid(),
      nbf: fc.integer({ min: -3600, max: CLOCK_TOLERANCE_S }),
      ttl: fc.integer({ min: CLOCK_TOLERANCE_S + 1, max: 86_400 }),
      extra: fc.dictionary(fc.stringMatching(/^x_[a-z]{1,8}$/), nastyString, { maxKeys: 3 }),
      order: fc.boolean(),
    })
    .map(({ typ, kid, sub, jti, nbf, ttl, extra, order }) => {
      const header = JSON.stringify({ alg: 'HS256', ...(typ ? { typ: 'JWT' } : {}), ...(kid === undefined ? {} : { kid }) });
      const claims = { sub, jti: `jti-${jti}`, nbf: now() + nbf, exp: now() + ttl, iss: ctx.posName, aud: SERVICE_AUDIENCE, ...extra };
      const entries = Object.entries(claims);
      const payload = JSON.stringify(Object.fromEntries(order ? entries.reverse() : entries));
      return { token: signTokenText(header, payload, ctx.key), headerText: header, payloadText: payload, signed: true };
    });
}

/** Any number JSON can carry, as text: every integer, huge and tiny doubles, values no Date can hold. */
const anyNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom('-1e300', '1e300', '-8640000000001', '8640000000001', '-8640000000000', '-1e16', '1e16', '-0', '1e-7'),
);

/** A clean token but for nbf and exp, which may be any number at all. */
export function timeClaimToken(ctx: TokenContext): fc.Arbitrary<BuiltToken> {
  const now = ctx.nowSeconds;
  return fc
    .record({
      nbf: fc.oneof(fc.constant(undefined), anyNumberText, fc.integer({ min: -7200, max: 7200 }).map((offset) => String(now() + offset))),
      exp: fc.oneof(anyNumberText, fc.integer({ min: -7200, max: 7200 }).map((offset) => String(now() + offset))),
      jti: fc.uuid(),
    })
    .map(({ nbf, exp, jti }) => {
      const header = '{"alg":"HS256","typ":"JWT"}';
      const payload = objectText([
        ['sub', JSON.stringify(ctx.locations[0])],
        ['jti', JSON.stringify(`jti-${jti}`)],
        ['nbf', nbf ?? String(now() - 10)],
        ['exp', exp],
        ['iss', JSON.stringify(ctx.posName)],
        ['aud', JSON.stringify(SERVICE_AUDIENCE)],
      ]);
      return { token: signTokenText(header, payload, ctx.key), headerText: header, payloadText: payload, signed: true };
    });
}

/** Ways to carry a token in the Authorization header, most of them wrong. */
export function authorizationValue(token: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    `Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}  `, `\tBearer\t${token}`, token, `Basic ${token}`, `Token ${token}`,
    `Bearer ${token} extra`, `Bearer ${token},Bearer ${token}`, 'Bearer', 'Bearer ', '', `Bearer "${token}"`,
  );
}

/** Why §5 refuses this token, or undefined when it must be accepted (the token was signed with the right key). */
export function tokenRuleBreach(built: BuiltToken, ctx: Pick<TokenContext, 'posName' | 'nowSeconds'>): string | undefined {
  if (!built.signed || built.headerText === undefined || built.payloadText === undefined) return 'not signed with the partner key';
  const header = parseObject(built.headerText);
  const claims = parseObject(built.payloadText);
  if (!header) return 'header is not a JSON object';
  if (header.alg !== 'HS256') return `alg is ${JSON.stringify(header.alg)}, not HS256`;
  // RFC 7515 §4.1.11: a recipient that does not understand an extension named in crit must reject the token, and
  // producers must not send the empty list, so any crit is refused.
  if (header.crit !== undefined) return `crit is ${JSON.stringify(header.crit)}: extensions the sandbox does not implement, or a crit producers must not send`;
  if (!claims) return 'payload is not a JSON object';
  for (const name of ['sub', 'jti', 'iss', 'aud']) {
    const value = claims[name];
    if (typeof value !== 'string' || value.trim() === '') return `${name} is not a non-empty string`;
  }
  if (claims.iss !== ctx.posName) return `iss is not the POS name`;
  if (claims.aud !== SERVICE_AUDIENCE) return `aud is not ${SERVICE_AUDIENCE}`;
  const { nbf, exp } = claims;
  if (typeof nbf !== 'number' || !Number.isInteger(nbf)) return 'nbf is not an integer';
  if (typeof exp !== 'number' || !Number.isInteger(exp)) return 'exp is not an integer';
  // The sandbox's own rule, stated in its message: a time over 1e11 is milliseconds sent where §5 wants seconds.
  if (nbf > 1e11 || exp > 1e11) return 'a time claim looks like milliseconds';
  const now = ctx.nowSeconds();
  if (nbf > now + CLOCK_TOLERANCE_S) return 'nbf is in the future';
  if (exp + CLOCK_TOLERANCE_S <= now) return 'exp is past';
  if (exp <= nbf) return 'exp is not after nbf';
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
