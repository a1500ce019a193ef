/** Test helpers: a seeded app with its own clock, and tokens built claim by claim. */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createSandbox, type Sandbox } from '../sandbox.js';
import type { DispatchPolicy } from '../dispatch/order-dispatcher.js';
import type { FaultRule } from '../faults/fault-rule-types.js';
import { memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { resolvePartner, type PartnerIdentity } from '../config.js';
import { SERVICE_AUDIENCE } from '../domain/pos-token-rules.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { silentLogger, type Logger } from '../logger.js';
import { PACKAGE_ROOT } from '../version.js';

export const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures');
export const fixtures = loadFixtures(FIXTURES_DIR);
export const PARTNER = resolvePartner(fixtures.partner, {});
/** The sandbox's clock in every test: 2026-11-21T10:00:00Z. */
export const NOW_S = Date.parse('2026-11-21T10:00:00Z') / 1000;
export const LOCATION = 'loc-std-001';
export const EXTERNAL_ID = 'POS-STD-1001';

export interface TestSandboxOptions {
  strict?: boolean;
  logger?: Logger;
  nowSeconds?: number;
  partner?: PartnerIdentity;
  refundDelayMs?: number;
  adminToken?: string;
  listenHost?: string;
  journalLimit?: number;
  refundLimit?: number;
  storage?: DocumentStorage;
  posOrderUrl?: string;
  dispatch?: Partial<DispatchPolicy>;
  raceWaitMs?: number;
  /** Default: a sleep that returns at once (the delays are recorded in `sleeps`). */
  sleep?: (ms: number) => Promise<void>;
  /** Fault rules of the start, as --faults gives them. */
  faults?: FaultRule[];
  random?: () => number;
  /** Where checklist runs write their reports, and GET /_sandbox/reports reads them. */
  reportDir?: string;
}

let defaultStorage: () => DocumentStorage = memoryStorage;

/**
 * The storage of every test sandbox that names none: memory, or a PostgreSQL one (on-postgres/), under which the
 * store-agnostic suites run a second time.
 */
export function useStorageForTestSandboxes(factory: () => DocumentStorage): void {
  defaultStorage = factory;
}

/** The backoff waits every test sandbox was asked for, newest last. */
export const sleeps: number[] = [];

/** A whole sandbox in memory with a clock the test moves and timers that never fire by themselves. */
export async function testSandbox(options: TestSandboxOptions = {}): Promise<Sandbox & { clock: { now: number; advance(ms: number): void } }> {
  let next = 0;
  const clock = {
    now: (options.nowSeconds ?? NOW_S) * 1000,
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const sandbox = await createSandbox({
    fixtures,
    partner: options.partner ?? PARTNER,
    storage: options.storage ?? defaultStorage(),
    logger: options.logger ?? silentLogger(),
    strict: options.strict ?? false,
    refundDelayMs: options.refundDelayMs ?? 0,
    journalLimit: options.journalLimit,
    refundLimit: options.refundLimit,
    adminToken: options.adminToken,
    listenHost: options.listenHost,
    clock: () => clock.now,
    newId: () => `id-${++next}`,
    setTimer: () => () => undefined,
    posOrderUrl: options.posOrderUrl,
    dispatch: { attemptTimeoutMs: 2_000, ...options.dispatch },
    raceWaitMs: options.raceWaitMs,
    faults: options.faults,
    random: options.random,
    reportDir: options.reportDir,
    sleep:
      options.sleep ??
      (async (ms) => {
        sleeps.push(ms);
      }),
  });
  return { ...sandbox, clock };
}

/** Just the app of a test sandbox. */
export async function testApp(options: TestSandboxOptions = {}): Promise<Express> {
  return (await testSandbox(options)).app;
}

/** Signs any header and payload with HS256, without the claim checks jwt.sign would make. */
export function signHs256(header: object, payload: object, key = PARTNER.nonProdKey): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode(header)}.${encode(payload)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

let jtiCounter = 0;

/** The six §5 claims of a valid POS → service token at NOW_S. */
export function validClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: LOCATION,
    jti: `jti-${++jtiCounter}`,
    nbf: NOW_S - 10,
    exp: NOW_S + 600,
    iss: PARTNER.name,
    aud: SERVICE_AUDIENCE,
    ...overrides,
  };
}

/** A valid token, or one with claims changed (`undefined` removes a claim). */
export function posToken(overrides: Record<string, unknown> = {}, key = PARTNER.nonProdKey): string {
  const claims = Object.fromEntries(Object.entries(validClaims(overrides)).filter(([, value]) => value !== undefined));
  return signHs256({ alg: 'HS256', typ: 'JWT' }, claims, key);
}

/** The headers of a clean refund: token, location, x-api-key, version and JSON content type. */
export function cleanHeaders(token = posToken()): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    'x-service-locationid': LOCATION,
    'x-api-key': PARTNER.apiKey ?? 'key',
    'x-api-version': '2',
    'Content-Type': 'application/json',
  };
}

/** POSTs a refund; `headers` values of undefined remove a clean header. */
export async function postRefund(
  app: Express | Promise<Express>,
  options: { path?: string; headers?: Record<string, string | undefined>; body?: string } = {},
): Promise<request.Response> {
  const headers = { ...cleanHeaders(), ...options.headers };
  let call = request(await app).post(options.path ?? '/v2/order/refund');
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) call = call.set(name, value);
  return call.send(options.body ?? JSON.stringify({ ExternalId: EXTERNAL_ID }));
}

/** PUTs a menu update (a JSON value, or text sent as is); `headers` values of undefined remove a clean header. */
export async function putMenu(
  app: Express | Promise<Express>,
  body: unknown,
  options: { path?: string; headers?: Record<string, string | undefined> } = {},
): Promise<request.Response> {
  const headers = { ...cleanHeaders(), ...options.headers };
  let call = request(await app).put(options.path ?? '/v2/menu');
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) call = call.set(name, value);
  return call.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The capitalized §2.3 menu envelope, VALIDATION_ERROR unless told. */
export function menuEnvelope(messages: string[], code = 'VALIDATION_ERROR'): object {
  return { errors: messages.map((message) => ({ Code: code, Message: message })) };
}

/** The lowercase §2.3 envelope with one entry per message. */
export function orderEnvelope(code: string, ...messages: string[]): object {
  return { errors: messages.map((message) => ({ code, message })) };
}
