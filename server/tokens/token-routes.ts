/** POST /_sandbox/tokens mints a POS → service token; POST /_sandbox/tokens/check judges one rule by rule, as the POS API would. */
import type { KeyObject } from 'node:crypto';
import { ApiError } from '../errors.js';
import { describeValue } from '../http/messages.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlRoute } from '../http/route.js';
import { jsonBody } from '../control/control-query.js';
import { sha256 } from '../journal/journal-entry.js';
import type { Journal } from '../journal/journal.js';
import { controlOk, controlResponses, json, ref } from '../openapi/openapi-parts.js';
import { explainPosToken } from './explain-pos-token.js';
import type { JtiRegistry } from './authenticate.js';
import { mintPosToken } from './mint-pos-token.js';

const MAX_TTL_S = 24 * 3600;

interface TokenDeps {
  partner: { name: string };
  partnerKey: KeyObject;
  clock: () => number;
  journal: Journal;
  jtis: JtiRegistry;
}

export const mintTokenRoute: ControlRoute<TokenDeps> = {
  method: 'POST',
  path: '/_sandbox/tokens',
  api: 'control',
  unredacted: true,
  handle: ({ partner, partnerKey, clock, journal }) => [
    readJsonBody,
    (_req, res) => {
      const { locationId, ttl } = tokenRequest(jsonBody(res));
      const minted = mintPosToken({ posName: partner.name, key: partnerKey, locationId, ttlSeconds: ttl, nowSeconds: Math.floor(clock() / 1000) });
      // Handed out here, redacted everywhere else: its signature alone in a later log line or body is hidden too.
      journal.redactor.remember(minted.token);
      res.status(201).json({ token: minted.token, header: { alg: 'HS256', typ: 'JWT' }, claims: minted.claims, expiresAt: new Date(minted.claims.exp * 1000).toISOString() });
    },
  ],
  doc: {
    operationId: 'mintToken',
    summary: 'Mint a POS → service token',
    description: "A valid POS → service token for a location, signed with the partner's key, with exactly the claims of §5 (sub, jti, nbf, exp, iss, aud), for tools that cannot sign one.",
    requestBody: {
      required: true,
      content: json({ type: 'object', required: ['locationId'], additionalProperties: false, properties: { locationId: { type: 'string' }, ttl: { type: 'integer', minimum: 1, maximum: 86400 } } }),
    },
    responses: controlResponses(
      {
        '201': controlOk('The token and its claims', {
          type: 'object',
          properties: { token: { type: 'string' }, header: { type: 'object' }, claims: { type: 'object' }, expiresAt: { type: 'string', format: 'date-time' } },
        }),
      },
      { invalid: 'a body that is not {locationId, ttl?}, every problem listed', readsBody: true, changesState: true },
    ),
  },
};

export const checkTokenRoute: ControlRoute<TokenDeps> = {
  method: 'POST',
  path: '/_sandbox/tokens/check',
  api: 'control',
  handle: ({ partner, partnerKey, clock, journal, jtis }) => [
    readJsonBody,
    (_req, res) => {
      const token = checkRequest(jsonBody(res));
      const explanation = explainPosToken(token, {
        key: partnerKey,
        posName: partner.name,
        nowSeconds: Math.floor(clock() / 1000),
        jtiUsedByAnother: (jti, whole) => jtis.usedByAnother(jti, sha256(whole)),
      });
      // The claims and messages may quote what was pasted: nothing the sandbox knows to be secret leaves in them.
      res.json(journal.redactor.value(explanation));
    },
  ],
  doc: {
    operationId: 'checkToken',
    summary: 'Judge a POS → service token, rule by rule',
    description:
      "What the POS API would answer a call carrying this token (authenticated, or 401 with its body), and each §5 rule passed, failed (every reason) or not judged (why). The claims are judged even where a 401 stops at a broken signature or alg. Nothing is recorded: the token's jti is not used up.",
    requestBody: {
      required: true,
      content: json({ type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', maxLength: 16384, description: "A JWT, or a whole 'Bearer <JWT>' header value." } } }),
    },
    responses: controlResponses(
      {
        '200': controlOk('The answer, the decoded token and every rule', {
          type: 'object',
          required: ['answer', 'rules', 'findings'],
          properties: {
            answer: { type: 'object', required: ['authenticated'], properties: { authenticated: { type: 'boolean' }, status: { const: 401 }, body: ref('OrderErrorEnvelope') } },
            header: { type: 'object' },
            claims: { type: 'object' },
            rules: {
              type: 'array',
              items: {
                type: 'object',
                required: ['rule', 'asks', 'verdict', 'details'],
                properties: {
                  rule: { enum: ['format', 'alg', 'payload', 'signature', 'sub', 'jti', 'iss', 'aud', 'nbf', 'exp'] },
                  asks: { type: 'string' },
                  verdict: { enum: ['pass', 'fail', 'not-judged'] },
                  details: { type: 'array', items: { type: 'string' } },
                },
              },
            },
            findings: { type: 'array', items: { type: 'object', required: ['code', 'message', 'section'], properties: { code: { type: 'string' }, message: { type: 'string' }, section: { type: 'string' } } } },
          },
        }),
      },
      { invalid: 'a body that is not {token}, or a token over 16 KiB', readsBody: true, changesState: true },
    ),
  },
};

/** The longest token the debugger judges; a POS sending a longer Authorization header gets 431 long before. */
const MAX_CHECKED_TOKEN = 16 * 1024;

function checkRequest(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('INVALID_REQUEST', `body must be a JSON object such as {"token":"eyJ…"}, got ${describeValue(value)}`);
  }
  const { token, ...rest } = value as Record<string, unknown>;
  const problems = Object.keys(rest).map((field) => `${field} is not a field of a token check (token)`);
  if (typeof token !== 'string') problems.push(`token must be a string (a JWT, or a whole 'Bearer <JWT>' header value), got ${describeValue(token)}`);
  else if (token.length > MAX_CHECKED_TOKEN) problems.push(`token is ${token.length} characters long; the check takes at most ${MAX_CHECKED_TOKEN}`);
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return token as string;
}

function tokenRequest(value: unknown): { locationId: string; ttl: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('INVALID_REQUEST', `body must be a JSON object such as {"locationId":"loc-std-001"}, got ${describeValue(value)}`);
  }
  const { locationId, ttl = 3600, ...rest } = value as Record<string, unknown>;
  const problems = Object.keys(rest).map((field) => `${field} is not a field of a token request (locationId, ttl)`);
  if (typeof locationId !== 'string' || locationId.trim() === '') problems.push(`locationId must be a non-empty string, got ${describeValue(locationId)}`);
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_S) {
    problems.push(`ttl must be a whole number of seconds from 1 to ${MAX_TTL_S}, got ${describeValue(ttl)}`);
  }
  if (problems.length > 0) throw new ApiError('INVALID_REQUEST', problems);
  return { locationId: locationId as string, ttl: ttl as number };
}
