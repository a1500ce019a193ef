/** One partner on one of several instances (docs/hosting.md): the instance leads it and runs its whole sandbox, or follows and sends its requests on; the lead moves by rendezvous hashing, handed over cleanly, or taken from a dead leader once its lease runs out. */
import type { RequestListener } from 'node:http';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../sandbox.js';
import { postgresStorage } from '../store/postgres-storage.js';
import type { DocumentStorage } from '../store/segment-storage.js';
import type { Leader, Leadership } from './leadership.js';
import { PUT_AWAY, type Membership } from './leadership.js';
import { sendOn, type SendingSlot } from './send-on.js';
import { followingStep, leadingStep } from './placement.js';
import { pingStore } from '../store/sandbox-store.js';

/** How often a follower tries to take the lead: the longest a dead leader's partner waits for another. */
export const TAKEOVER_CHECK_MS = 1000;
/** How long a request waits for a leader to answer (or for this instance to take the lead) before a 503. */
export const LEADER_WAIT_MS = 5000;
/** How long a partner may have no live leader before an instance that is not its owner takes it. */
export const ORPHAN_MS = 3000;
/** How long an instance must have been live before a partner moves to it: one that comes and goes moves nothing. */
export const STABLE_MS = 2000;
/** The longest a hand-over waits for requests in flight and deliveries under way; what is left, the new leader recovers. */
export const HANDOVER_DRAIN_MS = 15_000;
/** How long a partner handed over and not taken waits before its old leader takes it back. */
const NOT_TAKEN_MS = 10_000;
/** After a hand-over nobody took (the partner came back as an orphan), how long before trying again. */
const HANDOVER_BACKOFF_MS = 60_000;

export interface PartnerSlotOptions {
  partner: string;
  leadership: Leadership;
  membership: Membership;
  pool: pg.Pool;
  where: string;
  instanceId: string;
  logger: Logger;
  /** Makes the partner's sandbox on this storage, once this instance leads it; `forwardKey` is the database's. */
  createSandbox(storage: DocumentStorage, forwardKey: string): Promise<Sandbox>;
  checkMs?: number;
  waitMs?: number;
  /** Put a partner's sandbox away after this long without a request (serve --idle-ms); 0: make every partner at once, keep it. */
  idleMs?: number;
  /** Told of each lead taken (with how long its sandbox took to make) and given up: the instance's metrics. */
  observer?: { moved(direction: 'in' | 'out', why: string, activationMs?: number): void };
}

type State = { kind: 'following' } | { kind: 'leading'; sandbox: Sandbox; epoch: number } | { kind: 'handing'; sandbox: Sandbox } | { kind: 'stopped' };

export class PartnerSlot {
  private state: State = { kind: 'following' };
  private taking: Promise<boolean> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private url: string | undefined;
  /** Requests the leading sandbox is answering (event streams aside): a hand-over waits for them. */
  private inFlight = 0;
  private settledWaiters: Array<() => void> = [];
  /** Since when no live instance has led the partner, as this instance saw it. */
  private orphanSince: number | undefined;
  private handOverBackoff: { owner: string | undefined; until: number } | undefined;
  /** A request came for a partner this instance should run, asleep (made lazily): make it at once. */
  private wanted = false;
  private lastRequestAt = Date.now();

  /** What sending a request on needs of this slot (send-on.ts). */
  private readonly sendingOn: SendingSlot;

  constructor(private readonly options: PartnerSlotOptions) {
    this.sendingOn = {
      partner: options.partner,
      instanceId: options.instanceId,
      leadership: options.leadership,
      membership: options.membership,
      logger: options.logger,
      waitMs: options.waitMs ?? LEADER_WAIT_MS,
      state: () => (this.state.kind === 'leading' || this.state.kind === 'stopped' ? this.state.kind : 'other'),
      ownUrl: () => this.url,
      want: () => void (this.wanted = true),
      tryLead: () => this.tryLead(),
    };
    options.leadership.onLost(() => this.stepDown('the lock connection to the database was lost'));
  }

  get partner(): string {
    return this.options.partner;
  }

  /** The partner's sandbox while this instance leads it. */
  get sandbox(): Sandbox | undefined {
    return this.state.kind === 'leading' ? this.state.sandbox : undefined;
  }

  /** Whether this instance leads the partner now. */
  get leading(): boolean {
    return this.state.kind === 'leading';
  }

  /** Takes the lead at once if this instance should, then looks again every checkMs. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick().catch((error: unknown) => this.options.logger.warn({ err: error, partner: this.partner }, 'could not take or hand over the lead')), this.options.checkMs ?? TAKEOVER_CHECK_MS);
    this.timer.unref();
  }

  /** Each check: hand over, put away or keep a partner it leads; take one it should lead (placement.ts). */
  private async tick(): Promise<void> {
    const { membership, instanceId } = this.options;
    if (this.state.kind === 'leading') {
      const owner = membership.ownerOf(this.partner);
      const step = leadingStep({
        self: instanceId,
        owner,
        ownerStable: owner !== undefined && membership.liveFor(owner, STABLE_MS),
        handOverAllowed: this.handOverBackoff === undefined || this.handOverBackoff.owner !== owner || Date.now() >= this.handOverBackoff.until,
        idleForMs: this.inFlight > 0 ? 0 : Date.now() - this.lastRequestAt,
        idleMs: this.options.idleMs ?? 0,
        busy: busyWith(this.state.sandbox),
      });
      if (step === 'handOver') await this.letGo('handover', owner!);
      else if (step === 'putAway') await this.letGo('idle');
      return;
    }
    if (this.state.kind === 'following' && this.mayLead()) await this.tryLead();
  }

  /** The rules of placement.ts, and for an orphan, once that lasted ORPHAN_MS. */
  private mayLead(): boolean {
    const { membership, instanceId } = this.options;
    const row = membership.leaderOf(this.partner);
    const step = followingStep({
      self: instanceId,
      selfLive: membership.isLive(instanceId),
      owner: membership.ownerOf(this.partner),
      row,
      rowLive: row !== undefined && membership.isLive(row.instanceId),
      lazy: (this.options.idleMs ?? 0) > 0,
      wanted: this.wanted,
    });
    if (step === 'take') return true;
    if (step === 'wait') {
      this.orphanSince = undefined;
      return false;
    }
    this.orphanSince ??= Date.now();
    // A hand-over the owner has not taken: it may be making many partners at once (a start); wait longer for it.
    if (Date.now() - this.orphanSince < (step === 'notTaken' ? NOT_TAKEN_MS : ORPHAN_MS)) return false;
    // Taken back: not handed to that same owner again before a while; another owner may have it at once.
    this.handOverBackoff = { owner: membership.ownerOf(this.partner), until: Date.now() + HANDOVER_BACKOFF_MS };
    return true;
  }

  /** Where this instance answers, for the others to forward to; known once it listens. */
  async publish(url: string): Promise<void> {
    this.url = url;
    if (this.state.kind !== 'leading') return;
    this.state.sandbox.checklist.sandboxUrl = url;
    await this.options.leadership.publish(this.partner, this.state.epoch, url);
  }

  readonly listener: RequestListener = (req, res) => {
    if (this.state.kind === 'leading') {
      this.lastRequestAt = Date.now();
      // An event stream stays open as long as its client wants: a hand-over ends it rather than wait for it.
      if (!(req.url ?? '').startsWith('/_sandbox/events')) {
        this.inFlight++;
        res.once('close', () => {
          if (--this.inFlight === 0) for (const waiter of this.settledWaiters.splice(0)) waiter();
        });
      }
      return this.state.sandbox.app(req, res);
    }
    sendOn(this.sendingOn, req, res);
  };

  /** While following: which instance leads, as the database says, or the database's own trouble. */
  async followingHealth(): Promise<Record<string, unknown>> {
    let leader: Leader | undefined;
    const ping = await pingStore({ kind: 'postgres', ping: async () => void (leader = await this.options.leadership.leaderOf(this.partner)) });
    const seen = { role: 'follows', storeKind: 'postgres', storeLatencyMs: ping.ms };
    if (!ping.ok) return { status: 'unavailable', ...seen, storeError: ping.error };
    // Put away (idle): made again at its next request, by the instance rendezvous hashing names.
    if (leader?.instanceId === PUT_AWAY || (leader === undefined && (this.options.idleMs ?? 0) > 0)) return { status: 'ok', role: 'asleep', storeKind: 'postgres', storeLatencyMs: ping.ms, leader: null };
    // No row, or the row of an instance whose lock is gone: either way another takes the lead within a second.
    return leader === undefined ? { status: 'unavailable', ...seen, leader: null, reason: 'no instance leads this partner just now' } : { status: 'ok', ...seen, leader: leader.instanceId };
  }

  /** Stops leading (a graceful stop): the sandbox stops its timers, and the lock is given up for another to take. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const state = this.state;
    this.state = { kind: 'stopped' };
    if (state.kind === 'leading' || state.kind === 'handing') {
      state.sandbox.close();
      await state.sandbox.flush();
      await state.sandbox.store.commit().catch(() => undefined);
      await this.options.leadership.release(this.partner);
    }
  }

  /** Takes the lead if no instance holds it; one try at a time. */
  private tryLead(): Promise<boolean> {
    this.taking ??= this.takeLead().finally(() => (this.taking = undefined));
    return this.taking;
  }

  private async takeLead(): Promise<boolean> {
    if (this.state.kind !== 'following') return this.state.kind === 'leading';
    if (!this.mayLead()) return false;
    const generation = this.options.leadership.generation;
    const epoch = await this.options.leadership.tryLead(this.partner, this.url ?? null);
    if (epoch === undefined) return false;
    const storage = postgresStorage(this.options.pool, this.partner, this.options.where, {
      epoch,
      onFenced: () => this.stepDown('another instance took the lead'),
    });
    const makingFrom = performance.now();
    try {
      const sandbox = await this.options.createSandbox(storage, this.options.leadership.forwardKey);
      // The lock went with a connection lost meanwhile, or the instance stops: no lead.
      if (this.options.leadership.generation !== generation || (this.state as State).kind !== 'following') {
        sandbox.close();
        await this.options.leadership.release(this.partner);
        return false;
      }
      if (this.url !== undefined) sandbox.checklist.sandboxUrl = this.url;
      this.state = { kind: 'leading', sandbox, epoch };
      this.wanted = false;
      this.lastRequestAt = Date.now();
      this.options.observer?.moved('in', epoch === 1 ? 'first' : 'takeover', performance.now() - makingFrom);
      this.options.logger.info({ partner: this.partner, epoch }, `this instance leads partner '${this.partner}' (epoch ${epoch})`);
      return true;
    } catch (error) {
      await this.options.leadership.release(this.partner);
      throw error;
    }
  }

  /** New requests wait, those in flight are answered, deliveries settle, streams end, the state is committed, then the lock given up. */
  private async letGo(why: 'handover' | 'idle', owner?: string): Promise<void> {
    if (this.state.kind !== 'leading') return;
    const { sandbox, epoch } = this.state;
    this.state = { kind: 'handing', sandbox };
    if (why === 'handover') this.options.logger.info({ partner: this.partner, to: owner }, `handing partner '${this.partner}' over to instance '${owner}', which should lead it now`);
    sandbox.events.close();
    const deadline = Date.now() + HANDOVER_DRAIN_MS;
    if (this.inFlight > 0) await Promise.race([new Promise<void>((resolve) => this.settledWaiters.push(resolve)), sleep(HANDOVER_DRAIN_MS)]);
    await Promise.race([sandbox.orders.settled(), sleep(Math.max(0, deadline - Date.now()))]);
    sandbox.close();
    await sandbox.flush();
    await sandbox.store.commit().catch((error: unknown) => this.options.logger.warn({ err: error, partner: this.partner }, 'the last commit before a hand-over failed; the new leader reads what was stored'));
    if ((this.state as State).kind !== 'handing') return;
    if (why === 'idle') await this.options.leadership.putAway(this.partner, epoch).catch((error: unknown) => this.options.logger.warn({ err: error, partner: this.partner }, 'could not mark the partner put away; its owner makes it again at once'));
    this.state = { kind: 'following' };
    this.orphanSince = undefined;
    this.wanted = false;
    await this.options.leadership.release(this.partner);
    this.options.observer?.moved('out', why);
  }

  private stepDown(why: string): void {
    if (this.state.kind !== 'leading') return;
    const { sandbox } = this.state;
    this.state = { kind: 'following' };
    sandbox.events.close();
    sandbox.close();
    void this.options.leadership.release(this.partner);
    this.options.observer?.moved('out', 'lost');
    this.options.logger.warn({ partner: this.partner }, `this instance no longer leads partner '${this.partner}': ${why}`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Why a sandbox cannot be put away now: what it still has to do, or hold, for its partner. */
function busyWith(sandbox: Sandbox): string | undefined {
  if (sandbox.refunds.pendingCount > 0) return `${sandbox.refunds.pendingCount} refunds pending`;
  if (sandbox.orders.delivering > 0) return `${sandbox.orders.delivering} deliveries under way`;
  if (sandbox.events.streams.stats().clients > 0) return 'event streams open';
  if (sandbox.checklist.running) return 'a checklist run';
  return undefined;
}
