/** Test helpers: a seeded app with its own clock; the partner's identity and tokens come from test-identity.ts. */
import type { Express } from 'express';
import request from 'supertest';
import { createSandbox, type Sandbox } from '../sandbox.js';
import type { DispatchPolicy } from '../orders/order-delivery.js';
import type { FaultRule } from '../faults/fault-rule-types.js';
import { memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import type { PartnerIdentity } from '../config.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Redactor } from '../journal/redactor.js';
import { cleanHeaders, EXTERNAL_ID, fixtures, NOW_S, PARTNER } from './test-identity.js';

export * from './test-identity.js';

export interface TestSandboxOptions {
  strict?: boolean;
  logger?: Logger;
  /** The redaction of the sandbox's outputs, shared with a logger the test made. */
  redactor?: Redactor;
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
    redactor: options.redactor,
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
