/** A sandbox on the real clock and the reference POS over real HTTP, with short timings, for the checklist tests. */
import express from 'express';
import type { Bug } from '../../reference-pos/bugs.js';
import { createReferencePos } from '../../reference-pos/app.js';
import { createSandbox } from '../../server/sandbox.js';
import { memoryStorage } from '../../server/store/segment-storage.js';
import { silentLogger } from '../../server/logger.js';
import { fixtures, PARTNER } from '../../server/test/helpers.js';
import { listen } from '../../server/test/live.js';
import type { Capability, ItemStatus } from '../checklist-types.js';
import { runChecklist, type RunResult } from '../runner.js';
import { type RunOptions } from '../run-options.js';
import { otherPos, type Quirks } from './other-pos.js';
import { expect } from '@jest/globals';

/** The delivery timeout of the test sandbox where the POS's pace is the point: --bug slow-ack is set to 60 % of it. */
export const ACK_TIMEOUT_MS = 1000;

/**
 * The delivery timeout of `sandboxAndPos` without --bug slow-ack. ORDER-06 warns of an acknowledgement slower than
 * half the timeout, and in a full `npm test` on a loaded machine the correct in-process reference POS once took over
 * 500 ms to answer: a whole run, whose point is not the POS's pace, must not report the machine's load as the POS's.
 */
export const RELAXED_ACK_TIMEOUT_MS = 5000;

/**
 * A sandbox whose refunds, retries and timeouts are quick, on a loopback port; `retryDelaysMs` and `attemptTimeoutMs`
 * are its delivery tries', `raceWaitMs` how long a status call waits for its order's unread reply (default 2 s).
 */
export async function quickSandbox(retryDelaysMs = [50, 50], attemptTimeoutMs = ACK_TIMEOUT_MS, raceWaitMs?: number) {
  const sandbox = await createSandbox({
    fixtures,
    partner: PARTNER,
    storage: memoryStorage(),
    logger: silentLogger(),
    refundDelayMs: 20,
    dispatch: { attemptTimeoutMs, retryDelaysMs },
    ...(raceWaitMs !== undefined ? { raceWaitMs } : {}),
  });
  return { sandbox, sandboxUrl: await listen(sandbox.app) };
}

/**
 * A quick sandbox and the reference POS with `bugs` talking to it. `disguised`: its driver's health does not say
 * it is the reference POS, so a run against it is judged as a run against any partner's POS would be.
 */
export async function sandboxAndPos(bugs: Bug[] = [], options: { disguised?: boolean } = {}) {
  const { sandbox, sandboxUrl } = await quickSandbox(undefined, bugs.includes('slow-ack') ? ACK_TIMEOUT_MS : RELAXED_ACK_TIMEOUT_MS);
  const pos = createReferencePos({
    identity: { posName: PARTNER.name, key: PARTNER.nonProdKey, apiKey: PARTNER.apiKey },
    sandboxUrl,
    menus: fixtures.menus,
    locations: fixtures.locations,
    bugs: new Set(bugs),
    slowAckMs: ACK_TIMEOUT_MS * 0.6,
  });
  const disguise = express().get('/health', (_req, res) => void res.json({ status: 'ok' })).use(pos);
  const posUrl = await listen(options.disguised ? disguise : pos);
  return { sandbox, sandboxUrl, pos, posUrl };
}

/** Runs the checklist in driver mode against the pair, quietly; `lines` holds what it printed. */
export async function runAgainst(
  pair: { sandboxUrl: string; posUrl: string },
  options: { only?: string[]; capabilities?: Capability[]; mode?: RunOptions['mode']; live?: boolean; onWrite?: (text: string) => void; pos?: RunOptions['pos']; startWaitMs?: number; waitMs?: number; fetch?: RunOptions['fetch'] } = {},
): Promise<RunResult & { lines: string[]; statusOf(id: string): ItemStatus }> {
  const lines: string[] = [];
  const mode = options.mode ?? 'driver';
  const run = await runChecklist({
    sandboxUrl: pair.sandboxUrl,
    posOrderUrl: `${pair.posUrl}/order`,
    mode,
    ...(mode === 'driver' ? { driverUrl: pair.posUrl } : {}),
    capabilities: options.capabilities ?? ['refund', 'hub', 'kiosk'],
    ...(options.only ? { only: options.only } : {}),
    ...(options.pos ? { pos: options.pos } : {}),
    ...(options.startWaitMs !== undefined ? { startWaitMs: options.startWaitMs } : {}),
    // The driver's calls go through it: a test can see every one of them.
    ...(options.fetch ? { fetch: options.fetch } : {}),
    waitMs: options.waitMs ?? 1500,
    windowMs: 300,
    // Most waits end at the first read after the POS acted: at the default 100 ms a whole run spent about 1.5 s
    // between reads, and the in-process POS acts within milliseconds.
    pollMs: 20,
    out: { write: (text: string) => (lines.push(text), options.onWrite?.(text)) },
    live: options.live ?? false,
  });
  return { ...run, lines, statusOf: (id) => run.results.find((result) => result.item.id === id)!.status };
}

/**
 * A quick sandbox and the POS of other-pos.ts bent by `quirks`, and the checklist run against them over `only`; every
 * knock-on of the run names a root that did not pass. `said(id)`: the item's status (`blocked by X` for a knock-on)
 * and message.
 */
export async function runAgainstOtherPos(
  quirks: Quirks,
  only: string[] | undefined,
  capabilities: Capability[] = ['refund'],
  sandbox: { retryDelaysMs?: number[]; attemptTimeoutMs?: number; raceWaitMs?: number } = {},
  waitMs?: number,
) {
  const { sandboxUrl } = await quickSandbox(sandbox.retryDelaysMs, sandbox.attemptTimeoutMs, sandbox.raceWaitMs);
  const pos = await otherPos(sandboxUrl, quirks);
  const run = await runAgainst({ sandboxUrl, posUrl: pos.url }, { ...(only ? { only } : {}), capabilities, ...(waitMs ? { waitMs } : {}) });
  expectKnockOnsRooted(run);
  const said = (id: string) => {
    const result = run.results.find((candidate) => candidate.item.id === id)!;
    return { status: result.blockedBy ? `${result.status} by ${result.blockedBy}` : result.status, message: result.message };
  };
  return { run, said };
}

/** Every knock-on names a root cause that, when it ran, did not pass: a knock-on never points at a passing item. */
export function expectKnockOnsRooted(run: RunResult): void {
  const statusOf = new Map(run.results.map((result) => [result.item.id, result.status]));
  const dangling = run.results
    .filter((result) => result.blockedBy && ['pass', 'warn'].includes(statusOf.get(result.blockedBy) ?? ''))
    .map((result) => `${result.item.id} is blocked by ${result.blockedBy}, which is ${statusOf.get(result.blockedBy!)}`);
  expect(dangling).toEqual([]);
}
