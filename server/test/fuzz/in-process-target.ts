/**
 * The property suite's target: a test sandbox listening on 127.0.0.1:0, a keep-alive client, the lines it logs at
 * error level, its state as one string (to prove a refusal changed nothing), and every exception or rejection
 * nobody handled while it ran (which would kill `pos-sandbox serve`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { fixtures, PARTNER, NOW_S, testSandbox, type TestSandboxOptions } from '../helpers.js';
import type { Sandbox } from '../../sandbox.js';
import { answerProblems, type AnswerProblem } from './answer-check.js';
import type { PosCaseContext } from './pos-cases.js';
import { startStubPos, type StubPos } from './stub-pos.js';
import { WireClient, type Sent } from './wire-client.js';
import type { WireCase } from './wire-case.js';

export interface FuzzTarget {
  url: string;
  sandbox: Sandbox;
  ctx: PosCaseContext;
  stub: StubPos;
  send(wire: WireCase): Promise<Sent>;
  /** Refunds, orders, menus and fault rules as one string, once the deliveries under way have settled: equal strings, equal state. */
  state(): Promise<string>;
  /** What the sandbox logged at error level since the last call (stacks of 500s). */
  takeLog(): string[];
  /** Exceptions and rejections nobody handled since the last call. */
  takeCrashes(): string[];
  close(): Promise<void>;
}

/** The generators' view of the fixtures, at the test clock. */
export const TEST_CONTEXT: PosCaseContext = {
  posName: PARTNER.name,
  key: PARTNER.nonProdKey,
  apiKey: PARTNER.apiKey,
  nowSeconds: () => NOW_S,
  locations: fixtures.locations.map((location) => location.id),
  menuItems: Object.fromEntries(Object.entries(fixtures.menus).map(([id, menu]) => [id, menu.Items.map((item) => item.Id)])),
  externalIds: fixtures.orders.flatMap((order) => (order.ExternalId === undefined ? [] : [order.ExternalId])),
};

export async function startFuzzTarget(options: TestSandboxOptions = {}): Promise<FuzzTarget> {
  const log: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void log.push(line.trim()) });
  const stub = await startStubPos();
  const sandbox = await testSandbox({ logger, posOrderUrl: stub.url, ...options });
  const server = createServer(sandbox.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new WireClient(url, { maxSockets: 4 });
  const watch = watchProcessErrors();
  const locations = TEST_CONTEXT.locations;

  return {
    url,
    sandbox,
    ctx: TEST_CONTEXT,
    stub,
    async send(wire) {
      const sent = await client.send(wire, { timeoutMs: 10_000, signal: watch.signal() });
      // A rejection is reported after the microtasks of the turn that made it.
      await new Promise((resolve) => setImmediate(resolve));
      return sent;
    },
    // An order created with 202 is delivered in the background: it must not count against the next case.
    state: async () => {
      await sandbox.orders.settled();
      return JSON.stringify({
        refunds: sandbox.store.refunds.all(),
        orders: sandbox.store.orders.all(),
        menus: locations.map((id) => sandbox.store.menu(id)),
        faults: sandbox.faults.list(),
      });
    },
    takeLog: () => log.splice(0),
    takeCrashes: () => watch.crashes.splice(0),
    async close() {
      watch.restore();
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      sandbox.close();
      await stub.close();
    },
  };
}

/**
 * While a target runs, an uncaught exception is recorded instead of failing whichever test happens to run, and the
 * requests in flight are aborted, since the request that threw will never be answered. The capture callback is used
 * because jest gives each test file a copy of `process` whose listeners the real one never calls.
 */
function watchProcessErrors() {
  const crashes: string[] = [];
  let controller = new AbortController();
  const record = (error: unknown) => {
    crashes.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    controller.abort();
    controller = new AbortController();
  };
  const capture = !process.hasUncaughtExceptionCaptureCallback();
  if (capture) process.setUncaughtExceptionCaptureCallback(record);
  // Outside jest this hears rejections too; under jest, jest reports them against the running test itself.
  process.on('unhandledRejection', record);
  return {
    crashes,
    signal: () => controller.signal,
    restore() {
      if (capture) process.setUncaughtExceptionCaptureCallback(null);
      process.removeListener('unhandledRejection', record);
    },
  };
}

/** Everything wrong with one exchange: a crash, no answer, a 5xx, a bad envelope, a refusal that changed state. */
export function exchangeProblems(target: FuzzTarget, wire: WireCase, sent: Sent, state: { before?: string; after?: string } = {}): AnswerProblem[] {
  const problems: AnswerProblem[] = target.takeCrashes().map((stack) => ({ kind: 'crash', detail: `unhandled in the sandbox: ${stack.split('\n').slice(0, 8).join('\n')}` }));
  if (!sent.ok) {
    if (problems.length === 0) problems.push({ kind: 'no-answer', detail: sent.error });
    return problems;
  }
  problems.push(...answerProblems(sent.answer, wire.family));
  if (state.before !== undefined && state.after !== undefined && state.after !== state.before) {
    problems.push({ kind: 'state', detail: `refused with ${sent.answer.status} yet the sandbox's state changed` });
  }
  return problems;
}

/** Throws with every problem and what the sandbox logged, so fast-check shows them with the shrunk case. */
export function failOn(target: FuzzTarget, problems: AnswerProblem[]): void {
  const log = target.takeLog();
  if (problems.length === 0) return;
  const logged = log.length === 0 ? '' : `\nthe sandbox logged:\n${log.map((line) => line.slice(0, 1500)).join('\n')}`;
  throw new Error(`${problems.map((p) => `[${p.kind}] ${p.detail}`).join('\n')}${logged}`);
}

/** Sends a case and fails on any problem; `checkState` also proves a refusal changed nothing. */
export async function sendAndCheck(target: FuzzTarget, wire: WireCase, options: { checkState?: boolean } = {}): Promise<Sent> {
  const before = options.checkState === false ? undefined : await target.state();
  const sent = await target.send(wire);
  const refused = sent.ok && sent.answer.status >= 400;
  const after = before !== undefined && refused ? await target.state() : undefined;
  failOn(target, exchangeProblems(target, wire, sent, { before, after }));
  return sent;
}

