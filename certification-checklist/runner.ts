/**
 * The checklist runner (SANDBOX-SPEC §9): checks that the sandbox and the POS can be reached, runs the steps the
 * items in scope need, captures each step's journal entries and records, and judges every item over them.
 */
import { randomBytes } from 'node:crypto';
import type { JournalEntry } from '../server/journal/journal-entry.js';
import { CHECKLIST } from './items/all-items.js';
import { STEP_IDS, type ActorAnswer, type Capability, type ChecklistItem, type ItemStatus, type StepId, type Traffic } from './checklist-types.js';
import { causeOf, SandboxControl, type SandboxHealth } from './sandbox-control.js';
import { DriverActor, InteractiveActor, type PosActor } from './pos-actors.js';
import { ONLY_SKIPPED, outOfScope, type RunMode } from './scope.js';
import { itemLine } from './progress.js';
import { ORDER_STEPS } from './steps/order-steps.js';
import { REFUND_STEPS } from './steps/refund-steps.js';
import { MENU_STEPS } from './steps/menu-steps.js';
import type { StepContext, StepOutcome } from './steps/step-context.js';
import { isDelivery } from './traffic.js';

export interface RunOptions {
  sandboxUrl: string;
  posOrderUrl?: string;
  mode: RunMode;
  driverUrl?: string;
  capabilities: Capability[];
  only?: string[];
  /** How long to wait for the POS once asked (default 15 s with a driver, 120 s for a person). */
  waitMs?: number;
  /** How long to watch for retries after an injected error (default 3 s). */
  windowMs?: number;
  /** Where the live lines go; `live` lets the countdown rewrite its line (a terminal). */
  out: { write(text: string): unknown };
  live?: boolean;
  onItem?: (result: ItemResult) => void;
}

export interface ItemResult {
  item: ChecklistItem;
  status: ItemStatus;
  message: string;
  /** The journal entries the verdict rests on. */
  evidence: JournalEntry[];
  startedAt?: string;
  durationMs?: number;
}

export interface RunResult {
  runId: string;
  startedAt: string;
  finishedAt: string;
  mode: RunMode;
  capabilities: Capability[];
  only?: string[];
  sandbox: { url: string; version: string; partner: string };
  posOrderUrl?: string;
  driverUrl?: string;
  /** In checklist order. */
  results: ItemResult[];
}

/** The run could not start: the message names the URL that could not be reached. Exit code 2. */
export class StartError extends Error {}

const STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = { ...ORDER_STEPS, ...MENU_STEPS, ...REFUND_STEPS };

export async function runChecklist(options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const runTag = randomBytes(3).toString('hex');
  const runId = `${startedAt.toISOString().replace(/[:.]/g, '-')}-${runTag}`;
  const sandbox = new SandboxControl(options.sandboxUrl);
  const health = await startChecks(sandbox, options);
  const locations = await sandbox.locations();
  const scope = { capabilities: new Set(options.capabilities), ...(options.only ? { only: new Set(options.only) } : {}), mode: options.mode };
  const results = new Map<string, ItemResult>();
  const record = (result: ItemResult) => {
    results.set(result.item.id, result);
    // Live progress: one line per item as it finishes; items left out with --only stay out of it (the report lists them).
    if (!(result.status === 'skipped' && result.message === ONLY_SKIPPED)) options.out.write(itemLine({ ...result.item, status: result.status, message: result.message }));
    options.onItem?.(result);
  };
  for (const item of CHECKLIST) {
    const out = outOfScope(item, scope);
    if (out) record({ item, status: out.status, message: out.message, evidence: [] });
  }
  const judged = CHECKLIST.filter((item) => !results.has(item.id));

  if (options.mode === 'passive') {
    const traffic: Traffic = { entries: await sandbox.journalSince('j-000000'), orders: await sandbox.orders(), refunds: await sandbox.refunds(), asked: { posName: health.partner } };
    for (const item of judged) record(judge(item, traffic, new Date()));
  } else {
    const actor = actorFor(options);
    let sequence = 0;
    const ctx: StepContext = {
      sandbox,
      actor,
      ...(options.posOrderUrl ? { posOrderUrl: options.posOrderUrl } : {}),
      form: scope.capabilities.has('menu-form-b') ? 'B' : 'A',
      capabilities: scope.capabilities,
      locations,
      windowMs: options.windowMs ?? 3_000,
      ackLimitMs: health.delivery?.attemptTimeoutMs ?? 10_000,
      accepted: new Map(),
      newOrderId: () => `chk-${runTag}-${String(++sequence).padStart(2, '0')}`,
      runTag,
    };
    const runMark = await sandbox.journalMark();
    for (const step of STEP_IDS) {
      const items = judged.filter((item) => item.step === step);
      if (items.length === 0) continue;
      const began = new Date();
      let traffic: Traffic;
      try {
        traffic = step === 'all-traffic' ? await allTraffic(ctx, runMark, health) : await runStep(ctx, step);
      } catch (error) {
        for (const item of items) record({ item, status: 'error', message: `the step ${step} could not be run: ${(error as Error).message}`, evidence: [] });
        continue;
      }
      for (const item of items) record(judge(item, traffic, began));
    }
  }
  return {
    runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    mode: options.mode,
    capabilities: options.capabilities,
    ...(options.only ? { only: options.only } : {}),
    sandbox: { url: options.sandboxUrl, version: health.version, partner: health.partner },
    ...(options.posOrderUrl ? { posOrderUrl: options.posOrderUrl } : {}),
    ...(options.driverUrl ? { driverUrl: options.driverUrl } : {}),
    results: CHECKLIST.map((item) => results.get(item.id)!),
  };
}

function actorFor(options: RunOptions): PosActor {
  if (options.mode === 'driver') return new DriverActor(options.driverUrl!, options.waitMs ?? 15_000);
  return new InteractiveActor(options.out, options.waitMs ?? 120_000, options.live ?? false);
}

/** Runs one step and captures what it caused: the journal entries after its mark, its orders, the refunds. */
async function runStep(ctx: StepContext, step: StepId): Promise<Traffic> {
  const mark = await ctx.sandbox.journalMark();
  const outcome = await STEPS[step]!(ctx);
  return capture(ctx, mark, outcome.asked, outcome.orderIds ?? [], outcome.actor);
}

async function capture(ctx: StepContext, mark: string, asked: Record<string, unknown>, orderIds: string[], actor?: ActorAnswer): Promise<Traffic> {
  const entries = await ctx.sandbox.journalSince(mark);
  const orders = await Promise.all(orderIds.map((orderId) => ctx.sandbox.order(orderId)));
  return { entries, orders, refunds: await ctx.sandbox.refunds(), asked, ...(actor ? { actor } : {}) };
}

/** Every call the POS made since the run began; a run that made it call nothing first has it take one order. */
async function allTraffic(ctx: StepContext, runMark: string, health: SandboxHealth): Promise<Traffic> {
  let entries = await ctx.sandbox.journalSince(runMark);
  if (!entries.some((entry) => !isDelivery(entry))) {
    await STEPS['order-accepted']!(ctx);
    entries = await ctx.sandbox.journalSince(runMark);
  }
  return { entries, orders: [], refunds: [], asked: { posName: health.partner } };
}

function judge(item: ChecklistItem, traffic: Traffic, began: Date): ItemResult {
  const timing = { startedAt: began.toISOString(), durationMs: Date.now() - began.getTime() };
  try {
    const verdict = item.judge(traffic);
    const byId = new Map(traffic.entries.map((entry) => [entry.id, entry]));
    const evidence = verdict.evidence.map((id) => byId.get(id)).filter((entry): entry is JournalEntry => entry !== undefined);
    return { item, status: verdict.status, message: verdict.message, evidence, ...timing };
  } catch (error) {
    return { item, status: 'error', message: `the verdict could not be given: ${(error as Error).message}`, evidence: [], ...timing };
  }
}

/** Exit 2 material: the sandbox must answer; the driver and the order endpoint must at least accept a connection. */
async function startChecks(sandbox: SandboxControl, options: RunOptions): Promise<SandboxHealth> {
  let health: SandboxHealth;
  try {
    health = await sandbox.health();
  } catch (error) {
    throw new StartError(`cannot reach the sandbox at ${options.sandboxUrl}: ${(error as Error).message}; start it with npm start (or pass --sandbox URL)`);
  }
  if (options.mode === 'driver') await reachable(new URL('health', withSlash(options.driverUrl!)).href, 'the POS driver', options);
  if (options.posOrderUrl && options.mode !== 'passive') await reachable(options.posOrderUrl, "the POS's order endpoint", options);
  return health;
}

/** Throws StartError when nothing listens at `url`; a server that accepts and stays silent is let through (its items end blocked). */
async function reachable(url: string, what: string, options: RunOptions): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(3_000) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      options.out.write(`  note: ${what} at ${url} accepted the connection but did not answer within 3 s; going on\n`);
      return;
    }
    throw new StartError(`cannot reach ${what} at ${url}: ${causeOf(error)}`);
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
