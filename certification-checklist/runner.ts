/** The runner: checks the sandbox and the POS can be reached, runs the steps the items need, keeps each step's traffic, and judges every item over it. */
import { randomBytes } from 'node:crypto';
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { OrderRecord } from '../server/orders/order-rules.js';
import type { RefundRecord } from '../server/refunds/refund-rules.js';
import { CHECKLIST } from './items/all-items.js';
import { STEP_IDS, type ActorAnswer, type Capability, type ChecklistItem, type StepId, type Verdict } from './checklist-types.js';
import { linkSameCause } from './same-cause.js';
import { SandboxControl, type SandboxHealth } from './sandbox-control.js';
import { DriverActor, InteractiveActor, type PosActor } from './pos-actors.js';
import { ONLY_SKIPPED, outOfScope, type RunMode } from './scope.js';
import { itemLine, kindLine, stepLine } from './progress.js';
import { asEvidence } from './evidence.js';
import { startChecks } from './start-checks.js';
import type { ItemResult, RunOptions } from './run-options.js';
import { runKind, type PosUnderTest, type RunKindVerdict } from './run-kind.js';
import { ORDER_STEPS } from './steps/order-steps.js';
import { REFUND_STEPS } from './steps/refund-steps.js';
import { MENU_STEPS } from './steps/menu-steps.js';
import type { StepContext, StepOutcome, StepWait } from './steps/step-context.js';
import { trafficOf } from './traffic.js';


/** What one step did and captured: everything an item judging it reads. */
export interface StepRecord {
  id: string;
  startedAt: string;
  durationMs: number;
  waits: StepWait[];
  asked: Record<string, unknown>;
  actor?: ActorAnswer;
  entries: JournalEntry[];
  orders: OrderRecord[];
  refunds: RefundRecord[];
}

export interface RunResult {
  runId: string;
  startedAt: string;
  finishedAt: string;
  mode: RunMode;
  capabilities: Capability[];
  only?: string[];
  sandbox: { url: string; version: string; partner: string };
  pos: PosUnderTest;
  kind: RunKindVerdict;
  posOrderUrl?: string;
  driverUrl?: string;
  /** In checklist order. */
  results: ItemResult[];
  /** In the order they ran. */
  steps: StepRecord[];
}

export { DEFAULT_START_WAIT_MS, silentNote, StartError } from './start-checks.js';

const STEPS: Partial<Record<StepId, (ctx: StepContext) => Promise<StepOutcome>>> = { ...ORDER_STEPS, ...MENU_STEPS, ...REFUND_STEPS };

/** The captured traffic of a passive run: the journal as it was. */
export const PASSIVE_TRAFFIC = 'journal';

export async function runChecklist(options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const runTag = randomBytes(3).toString('hex');
  const runId = `${startedAt.toISOString().replace(/[:.]/g, '-')}-${runTag}`;
  const sandbox = new SandboxControl(options.sandboxUrl, undefined, options.pollMs, options.adminToken);
  const { health, referencePos } = await startChecks(sandbox, options);
  const pos: PosUnderTest = {
    name: options.pos?.name ?? health.partner,
    ...(options.pos?.version ? { version: options.pos.version } : {}),
    ...(options.pos?.build ? { build: options.pos.build } : {}),
    ...(referencePos || options.pos?.referencePos ? { referencePos: true } : {}),
  };
  const kind = runKind({ mode: options.mode, ...(options.only ? { only: options.only } : {}), pos });
  const locations = await sandbox.locations();
  const scope = { capabilities: new Set(options.capabilities), ...(options.only ? { only: new Set(options.only) } : {}), mode: options.mode };
  const results = new Map<string, ItemResult>();
  const verdicts = new Map<string, Verdict>();
  const steps: StepRecord[] = [];
  options.out.write(`${kindLine(kind)}\n`);
  const record = (result: ItemResult) => {
    results.set(result.item.id, result);
    // Live progress: one line per item as it finishes; items left out with --only stay out of it (the report lists them).
    if (!(result.status === 'skipped' && result.message === ONLY_SKIPPED)) {
      const knockOn = result.blockedBy ? { blockedBy: result.blockedBy, rootBlocker: chainRoot(result.blockedBy, results) } : {};
      options.out.write(itemLine({ ...result.item, status: result.status, message: result.message, ...(result.hint ? { hint: result.hint } : {}), ...knockOn }));
    }
    options.onItem?.(result);
  };
  for (const item of CHECKLIST) {
    const out = outOfScope(item, scope);
    if (out) record({ item, status: out.status, message: out.message, evidence: [] });
  }
  const judged = CHECKLIST.filter((item) => !results.has(item.id));

  if (options.mode === 'passive') {
    const began = new Date();
    const entries = (await sandbox.journalSince('j-000000')).map(asEvidence);
    const step: StepRecord = { id: PASSIVE_TRAFFIC, startedAt: began.toISOString(), durationMs: Date.now() - began.getTime(), waits: [], asked: runWide(health), entries, orders: [], refunds: [] };
    steps.push(step);
    for (const item of judged) record(judge(item, step, began, verdicts));
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
      waits: [],
      statusCalls: { seen: false, missed: false },
      deliveries: { taken: false, failed: false },
    };
    const runMark = await sandbox.journalMark();
    for (const id of STEP_IDS) {
      const items = judged.filter((item) => item.step === id);
      if (items.length === 0 && !judged.some((item) => item.drives?.includes(id))) continue;
      const began = new Date();
      ctx.waits = [];
      let step: StepRecord;
      try {
        const captured = id === 'all-traffic' ? await allTraffic(ctx, runMark, health) : await runStep(ctx, id);
        step = { id, startedAt: began.toISOString(), durationMs: Date.now() - began.getTime(), waits: ctx.waits, ...captured };
      } catch (error) {
        for (const item of items) record({ item, status: 'error', message: `the step ${id} could not be run: ${(error as Error).message}`, evidence: [] });
        continue;
      }
      steps.push(step);
      options.out.write(stepLine(step));
      for (const item of items) record(judge(item, step, began, verdicts));
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
    pos,
    kind,
    ...(options.posOrderUrl ? { posOrderUrl: options.posOrderUrl } : {}),
    ...(options.driverUrl ? { driverUrl: options.driverUrl } : {}),
    results: CHECKLIST.map((item) => results.get(item.id)!),
    steps,
  };
}

/** The item at the root of a chain of knock-ons, as far as the results so far tell. */
function chainRoot(id: string, results: ReadonlyMap<string, ItemResult>): string {
  const seen = new Set<string>();
  let root = id;
  while (results.get(root)?.blockedBy && !seen.has(root)) {
    seen.add(root);
    root = results.get(root)!.blockedBy!;
  }
  return root;
}

function actorFor(options: RunOptions): PosActor {
  if (options.mode === 'driver') return new DriverActor(options.driverUrl!, options.waitMs ?? 15_000, options.fetch);
  return new InteractiveActor(options.out, options.waitMs ?? 120_000, options.live ?? false);
}

type Captured = Pick<StepRecord, 'asked' | 'actor' | 'entries' | 'orders' | 'refunds'>;

/** Runs one step and captures what it caused: the journal entries after its mark, its orders, the refunds its calls made. */
async function runStep(ctx: StepContext, step: StepId): Promise<Captured> {
  const mark = await ctx.sandbox.journalMark();
  const outcome = await STEPS[step]!(ctx);
  const entries = (await ctx.sandbox.journalSince(mark)).map(asEvidence);
  const orders = await Promise.all((outcome.orderIds ?? []).map((orderId) => ctx.sandbox.order(orderId)));
  const ids = new Set(entries.map((entry) => entry.id));
  const refunds = (await ctx.sandbox.refunds()).filter((refund) => ids.has(refund.journalId));
  return { entries, orders, refunds, asked: outcome.asked, ...(outcome.actor ? { actor: outcome.actor } : {}) };
}

/** Everything the POS did since the run began; a run in which nothing happened yet (--only AUTH-05) first has it take one order. */
async function allTraffic(ctx: StepContext, runMark: string, health: SandboxHealth): Promise<Captured> {
  let entries = await ctx.sandbox.journalSince(runMark);
  if (entries.length === 0) {
    await STEPS['order-accepted']!(ctx);
    entries = await ctx.sandbox.journalSince(runMark);
  }
  return { entries: entries.map(asEvidence), orders: [], refunds: [], asked: runWide(health) };
}

/** What the items over all of a run's traffic compare against: the POS name its tokens must carry, the delivery timeout. */
const runWide = (health: SandboxHealth) => ({ posName: health.partner, ackLimitMs: health.delivery?.attemptTimeoutMs ?? 10_000 });

/** Judges an item over its step's traffic; `verdicts` holds the verdicts given so far, for the same-cause link, and gets this one. */
function judge(item: ChecklistItem, step: StepRecord, began: Date, verdicts: Map<string, Verdict>): ItemResult {
  const timing = { startedAt: began.toISOString(), durationMs: Date.now() - began.getTime() };
  try {
    const own = item.judge(trafficOf(step));
    const verdict = linkSameCause(item.id, own, verdicts);
    verdicts.set(item.id, own);
    const byId = new Map(step.entries.map((entry) => [entry.id, entry]));
    const evidence = verdict.evidence.map((id) => byId.get(id)).filter((entry): entry is JournalEntry => entry !== undefined);
    return { item, status: verdict.status, message: verdict.message, evidence, judgedOver: step.id, ...(verdict.blockedBy ? { blockedBy: verdict.blockedBy } : verdict.hint ? { hint: verdict.hint } : {}), ...timing };
  } catch (error) {
    return { item, status: 'error', message: `the verdict could not be given: ${(error as Error).message}`, evidence: [], ...timing };
  }
}
