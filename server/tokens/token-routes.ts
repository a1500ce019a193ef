/**
 * POST /_sandbox/tokens {locationId, ttl?}: a POS → service token, for tools that cannot sign one.
 * POST /_sandbox/tokens/check {token}: what the POS API would answer a call carrying a token, and why, rule by rule.
 */
import { createSecretKey } from 'node:crypto';
import { Router } from 'express';
import { explainPosToken } from './explain-pos-token.js';
import { sha256 } from '../journal/journal-entry.js';
import { ApiError } from '../errors.js';
import { describeValue } from '../http/describe-value.js';
import { mintPosToken } from './mint-pos-token.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlDeps } from '../control/control-router.js';

const MAX_TTL_S = 24 * 3600;

export function tokenRoutes(deps: ControlDeps): Router {
  const router = Router();
  // Made once: given the key as a string, jsonwebtoken tries it as a PEM key first at every call, which took 50 to 80
  // times the signature itself (0.46-0.65 ms a token against 8-9 µs, 2026-11-29).
  const key = createSecretKey(Buffer.from(deps.partner.nonProdKey, 'utf8'));
  router.post('/tokens', readJsonBody, (_req, res) => {
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
    const { locationId, ttl } = tokenRequest(body.value);
    const nowSeconds = Math.floor(deps.clock() / 1000);
    const minted = mintPosToken({ posName: deps.partner.name, key, locationId, ttlSeconds: ttl, nowSeconds });
    // Handed out here, redacted everywhere else: its signature alone in a later log line or body is hidden too.
    deps.journal.redactor.remember(minted.token);
    res.status(201).json({
      token: minted.token,
      header: { alg: 'HS256', typ: 'JWT' },
      claims: minted.claims,
      expiresAt: new Date(minted.claims.exp * 1000).toISOString(),
    });
  });
  router.post('/tokens/check', readJsonBody, (_req, res) => {
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
    const token = checkRequest(body.value);
    const explanation = explainPosToken(token, {
      key,
      posName: deps.partner.name,
      nowSeconds: Math.floor(deps.clock() / 1000),
      jtiUsedByAnother: (jti, whole) => deps.jtis.usedByAnother(jti, sha256(whole)),
    });
    // The claims and messages may quote what was pasted: nothing the sandbox knows to be secret leaves in them.
    res.json(deps.journal.redactor.value(explanation));
  });
  return router;
}

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
