/** Cases in replayable chunks, sent concurrently; when the child dies the cases in flight are replayed one by one on a fresh child to find the killer. */
import fc from 'fast-check';
import { answerProblems, type Answer, type AnswerProblem } from '../../server/test/fuzz/answer-check.js';
import { controlCall } from '../../server/test/fuzz/control-cases.js';
import { posCase, type PosCaseContext } from '../../server/test/fuzz/pos-cases.js';
import { validToken } from '../../server/test/fuzz/token-cases.js';
import { UNSENDABLE, WireClient } from '../../server/test/fuzz/wire-client.js';
import { startStubPos, type StubPos } from '../../server/test/fuzz/stub-pos.js';
import type { FuzzCase } from './case-mix.js';
import { ChildSandbox } from './child-sandbox.js';
import { FuzzTally } from './fuzz-tally.js';
import { sendRaw } from './raw-cases.js';

const CHUNK = 1000;
/** After this many crashes by cases of one group (endpoint and kind), the rest of the group is skipped and counted. */
const CRASHES_PER_GROUP = 2;
/** A run with more crashes than this stops: the sandbox is not fit for fuzzing yet. */
const MAX_CRASHES = 60;

/** The group of a case for quarantine: `menu | deep array` for `deep array: in Items`. */
const groupOf = (one: FuzzCase) => `${one.endpoint} | ${one.kind.split(':')[0]}`;

type Outcome = { answer: Answer } | { error: string };

export class FuzzLoop {
  readonly tally = new FuzzTally();
  private child!: ChildSandbox;
  private client!: WireClient;
  private stub!: StubPos;
  private readonly inFlight = new Set<FuzzCase>();
  private suspects = new Set<FuzzCase>();
  /** Log lines of children that died, by request id. */
  private readonly oldErrors = new Map<string, string[]>();
  private readonly crashesByGroup = new Map<string, number>();
  /** The next child, started ahead: a crash then costs no start-up wait. */
  private spare: Promise<ChildSandbox> | undefined;
  /** Groups whose cases crashed the sandbox CRASHES_PER_GROUP times: skipped from then on, so the run reaches the rest. */
  readonly quarantined = new Set<string>();
  stopped: string | undefined;

  constructor(private readonly options: { ctx: PosCaseContext; concurrency: number; onProgress?: (done: number) => void }) {}

  /** Where the stand-in POS takes orders. */
  get posOrderUrl(): string {
    return this.stub.url;
  }

  async start(): Promise<void> {
    this.stub = await startStubPos();
    await this.restart();
  }

  async close(): Promise<void> {
    this.client.close();
    await this.child.stop();
    if (this.spare) await (await this.spare).stop();
    await this.stub.close();
  }

  /** Sends `total` cases of `cases`; returns how many were sent (fewer when the run was stopped). */
  async run(cases: fc.Arbitrary<FuzzCase>, total: number, seed: number): Promise<number> {
    let done = 0;
    for (let chunk = 0; done < total && this.stopped === undefined; chunk++) {
      const batch = fc.sample(cases, { seed: seed + chunk, numRuns: Math.min(CHUNK, total - done) });
      await this.runBatch(batch);
      await this.statusSanity(seed + chunk);
      done += batch.length;
      this.options.onProgress?.(done);
    }
    return done;
  }

  /** Sends one case on a fresh child and says what happened, for --replay. */
  async replay(one: FuzzCase): Promise<{ outcome: Outcome; problems: AnswerProblem[]; died: boolean; log: string }> {
    const outcome = await this.send(one);
    const died = await this.child.diedWithin(500);
    const problems = 'answer' in outcome ? this.judge(one, outcome.answer) : [];
    const requestId = 'answer' in outcome ? String(outcome.answer.headers['x-request-id'] ?? '') : '';
    const log = died ? this.child.deathNote() : (this.child.errorsByRequest.get(requestId) ?? []).join('\n');
    return { outcome, problems, died, log };
  }

  private async runBatch(batch: FuzzCase[]): Promise<void> {
    const running = new Set<Promise<void>>();
    for (const one of batch) {
      if (this.stopped !== undefined) break;
      if (this.suspects.size > 0) {
        await Promise.all(running);
        await this.findCulprit();
      }
      if (this.quarantined.has(groupOf(one))) {
        this.tally.counts.skipped++;
        continue;
      }
      if (one.wire?.exclusive) {
        await Promise.all(running);
        await this.handle(one);
        // A fault rule left in force would answer for the service from now on: remove it.
        await this.client.send(controlCall('DELETE', '/faults'));
        continue;
      }
      while (running.size >= this.options.concurrency) await Promise.race(running);
      const promise: Promise<void> = this.handle(one).finally(() => running.delete(promise));
      running.add(promise);
    }
    await Promise.all(running);
    if (this.suspects.size > 0) await this.findCulprit();
  }

  private async handle(one: FuzzCase): Promise<void> {
    this.inFlight.add(one);
    const outcome = await this.send(one);
    this.inFlight.delete(one);
    if ('error' in outcome) {
      if (outcome.error.startsWith(UNSENDABLE)) {
        this.tally.counts.unsendable++;
        return;
      }
      if (!this.child.alive || (await this.child.diedWithin(300))) {
        // Every case in flight when it died is a suspect; the culprit is found by replaying them alone.
        this.suspects.add(one);
        for (const other of this.inFlight) this.suspects.add(other);
        return;
      }
      this.tally.countCase(one, undefined);
      this.tally.fail({ case: one, problem: { kind: 'no-answer', detail: outcome.error } }, `no-answer | ${one.endpoint} | ${normalize(outcome.error)}`);
      return;
    }
    this.tally.countCase(one, outcome.answer.status);
    for (const problem of this.judge(one, outcome.answer)) await this.record(one, problem, outcome.answer);
  }

  private send(one: FuzzCase): Promise<Outcome> {
    if (one.raw) return sendRaw(this.child.port, one.raw.bytes).then((sent) => (sent.ok ? { answer: sent.answer } : { error: sent.error }));
    return this.client.send(one.wire!, { timeoutMs: 20_000 }).then((sent) => (sent.ok ? { answer: sent.answer } : { error: sent.error }));
  }

  /** The oracle of the property suite, the case's own expectation, and its extra rule (`rule` groups the failure). */
  private judge(one: FuzzCase, answer: Answer): Array<AnswerProblem & { rule?: string }> {
    const problems = answerProblems(answer, one.wire?.family ?? 'any');
    const expect = one.expect ?? (one.raw?.expect === 'answer' ? undefined : one.raw?.expect);
    const ok = answer.status >= 200 && answer.status < 300;
    if (expect === 'success' && !ok) problems.push({ kind: 'rule', detail: `a valid request answered ${answer.status}: ${answer.body.slice(0, 300)}` });
    if (expect === 'refusal' && answer.status < 400) problems.push({ kind: 'rule', detail: `a request that must be refused answered ${answer.status}` });
    const broken = one.check?.(answer);
    return broken ? [...problems, { kind: 'rule', detail: broken.detail, rule: broken.rule }] : problems;
  }

  private async record(one: FuzzCase, problem: AnswerProblem & { rule?: string }, answer: Answer): Promise<void> {
    const requestId = String(answer.headers['x-request-id'] ?? '');
    let log = this.logOf(requestId);
    // The 500's log line and the answer travel on different pipes: give the log up to a second (a busy child is slow to write).
    for (let wait = 0; problem.kind === '5xx' && log.length === 0 && requestId !== '' && wait < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      log = this.logOf(requestId);
    }
    // One group per bug, not per case: a 500 by where it was thrown, an envelope violation by what is wrong with it.
    const signature =
      problem.kind === '5xx'
        ? `5xx | ${serverErrorOf(log) ?? normalize(problem.detail)}`
        : problem.rule !== undefined
          ? `rule | ${one.endpoint} | ${problem.rule}`
          : `${problem.kind} | ${one.endpoint} | ${normalize(problem.detail)}`;
    this.tally.fail({ case: one, problem, requestId, log: log.join('\n') }, signature);
  }

  private logOf(requestId: string): string[] {
    return this.child.errorsByRequest.get(requestId) ?? this.oldErrors.get(requestId) ?? [];
  }

  /** Replays the suspects of a crash one by one on a fresh child; records the one that kills it (or all, if none does). */
  private async findCulprit(): Promise<void> {
    const suspects = [...this.suspects].sort((a, b) => size(a) - size(b));
    this.suspects = new Set();
    let note = this.child.deathNote();
    let culprit: FuzzCase | undefined;
    await this.restart();
    for (const one of suspects) {
      const outcome = await this.send(one);
      // A case that was answered is not the one that killed it, unless the child dies right after.
      if (await this.child.diedWithin('error' in outcome ? 1000 : 50)) {
        culprit = one;
        note = this.child.deathNote();
        break;
      }
    }
    if (!this.child.alive) await this.restart();
    const blamed = culprit ?? suspects[0]!;
    for (const one of suspects) this.tally.countCase(one, undefined);
    const detail = culprit ? 'the sandbox process died on this case (replayed alone, it dies again)' : `the sandbox process died with ${suspects.length} case(s) in flight; none kills it alone`;
    const suspectList = suspects.map((one) => `  ${one.endpoint} [${one.kind}] ${one.wire ? `${one.wire.method} ${one.wire.path.slice(0, 100)}` : 'raw bytes'}`).join('\n');
    const log = culprit ? note : `${note}\n\ncases in flight when it died:\n${suspectList}`;
    this.tally.fail({ case: blamed, problem: { kind: 'crash', detail }, log }, `crash | ${culprit ? '' : 'not reproduced by one case alone | '}${crashSite(note)}`);
    const group = groupOf(blamed);
    this.crashesByGroup.set(group, (this.crashesByGroup.get(group) ?? 0) + 1);
    if ((this.crashesByGroup.get(group) ?? 0) >= CRASHES_PER_GROUP) this.quarantined.add(group);
    if (this.tally.counts.crashes > MAX_CRASHES) this.stopped = `stopped after ${this.tally.counts.crashes} crashes`;
  }

  private async restart(): Promise<void> {
    if (this.child) {
      for (const [id, lines] of this.child.errorsByRequest) this.oldErrors.set(id, lines);
      this.client.close();
      await this.child.stop();
    }
    this.child = await (this.spare ?? ChildSandbox.start({ posOrderUrl: this.stub.url }));
    this.spare = ChildSandbox.start({ posOrderUrl: this.stub.url });
    this.client = new WireClient(this.child.baseUrl, { maxSockets: this.options.concurrency });
  }

  /** A valid status call about an order awaiting it must answer 200: the run cannot pass by refusing everything. */
  private async statusSanity(seed: number): Promise<void> {
    const ctx = this.options.ctx;
    const created = await this.client.send(controlCall('POST', '/orders?wait=true', { template: 'standard' }), { timeoutMs: 30_000 });
    const order = created.ok && created.answer.status === 201 ? (JSON.parse(created.answer.body) as { ExternalId?: string; Status?: string }) : undefined;
    const [token] = fc.sample(validToken(ctx, 'loc-std-001'), { seed, numRuns: 1 });
    const body = Buffer.from(JSON.stringify({ ExternalId: order?.ExternalId ?? 'none', Status: 'ACCEPTED' }));
    const one: FuzzCase = { endpoint: 'status', kind: 'valid status', expect: 'success', wire: posCase(ctx, 'status', { token: token!.token, body, kind: 'valid status' }) };
    if (order?.Status !== 'AWAITING_STATUS') {
      const detail = `creating an order to decide failed: ${created.ok ? `${created.answer.status} ${created.answer.body.slice(0, 200)}` : created.error}`;
      this.tally.fail({ case: one, problem: { kind: 'rule', detail } }, 'rule | control | create order for a status call | failed');
      return;
    }
    await this.handle(one);
  }
}

const size = (one: FuzzCase) => one.wire?.body?.length ?? one.raw?.bytes.length ?? 0;

/** Numbers, quoted values and ids out, so that the same failure with other data groups together. */
function normalize(text: string): string {
  return text
    .split('\n')[0]!
    .replace(/'[^']*'|"[^"]*"/g, '…')
    .replace(/\d+/g, '#')
    .slice(0, 140);
}

/** `TypeError: Cannot convert… @ server/tokens/pos-token-rules.ts:103` from the sandbox's log of a 500. */
function serverErrorOf(log: string[]): string | undefined {
  for (const line of log) {
    try {
      const err = (JSON.parse(line) as { err?: { type?: string; message?: string; stack?: string } }).err;
      if (!err) continue;
      const frame = /\((?:[^()]*\/)?((?:server|node_modules)\/[^():]+:\d+)/.exec(err.stack?.split('\n').find((l) => l.includes('/server/')) ?? err.stack ?? '')?.[1];
      return `${err.type ?? 'Error'}: ${normalize(err.message ?? '')}${frame ? ` @ ${frame}` : ''}`;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** What a crash threw and the first function of server/ on its stack: `RangeError: Maximum call stack… @ walk (server/journal/journal-entry.ts)`. */
function crashSite(note: string): string {
  const message = /^(\w*Error[^\n]*)/m.exec(note)?.[1] ?? 'no error printed';
  const frame = /at (\S+) \([^()]*?(server\/[^():\s]+):\d+/.exec(note);
  return `${normalize(message)}${frame ? ` @ ${frame[1]} (${frame[2]})` : ''}`;
}
