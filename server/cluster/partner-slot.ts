/**
 * One partner on an instance of a sandbox that several instances serve on one database (docs/hosting.md). The
 * instance either leads the partner, and runs its whole sandbox (state in memory, refunds processed, orders
 * delivered, fault counters, journal, events), or follows, and sends the partner's requests on to the leader. So
 * every state change of a partner happens in one process, as on a laptop, and a client may call any instance.
 *
 * Which instance leads a partner is rendezvous hashing's answer over the live instances (membership.ts): every
 * `checkMs` the instance that should lead it takes the lead if it is free, and one that leads a partner another
 * live instance should lead hands it over: new requests wait, those in flight are answered and deliveries under
 * way settle, event streams are ended (their clients reconnect, to the new leader), the state is committed, and
 * the lock given up. The lock goes with the leader's connection, so a leader that died (SIGKILL) is replaced once
 * its lease runs out, and the new leader reads the state from the database: refunds still PENDING are decided,
 * orders left mid-delivery recovered, as a restart would. A partner no instance took for ORPHAN_MS (its owner
 * cannot, say) is taken by any instance: never left without a leader.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../sandbox.js';
import { postgresStorage } from '../store/postgres-storage.js';
import type { DocumentStorage } from '../store/segment-storage.js';
import { forwardRequest, MAX_FORWARDED_BODY, readBody, refuse, unavailable } from './forward-request.js';
import { BODY_LIMIT_BYTES } from '../pipeline/json-body.js';
import { isOriginForm, ORIGIN_FORM_ONLY } from '../pipeline/request-target.js';
import type { Leader, Leadership } from './leadership.js';
import type { Membership } from './membership.js';
import { pingStore } from '../store/ping-store.js';

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
  /** Told of each lead taken (with how long its sandbox took to make) and given up: the instance's metrics. */
  observer?: { moved(direction: 'in' | 'out', why: string, activationMs?: number): void };
}

type State = { kind: 'following' } | { kind: 'leading'; sandbox: Sandbox; epoch: number } | { kind: 'handing'; sandbox: Sandbox } | { kind: 'stopped' };

/** The database did not answer a question of the forwarding: the answer says so, not that the leader is away. */
class DatabaseSilent extends Error {
  constructor(cause: unknown) {
    super(`the database does not answer (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}

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
  private handOverAfter = 0;

  constructor(private readonly options: PartnerSlotOptions) {
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

  /** Leading a partner another live instance should lead: hand it over. Following one this instance should lead: take it. */
  private async tick(): Promise<void> {
    if (this.state.kind === 'leading') {
      const owner = this.options.membership.ownerOf(this.partner);
      if (owner !== undefined && owner !== this.options.instanceId && this.options.membership.liveFor(owner, STABLE_MS) && Date.now() >= this.handOverAfter) await this.handOver(owner);
      return;
    }
    if (this.state.kind === 'following' && this.mayLead()) await this.tryLead();
  }

  /**
   * Whether this instance may take the lead: it is the partner's owner among the live instances; or no live
   * instance has led the partner for ORPHAN_MS (none recorded, the one recorded is gone, or it is this one, which
   * handed the partner over to an instance that did not take it).
   */
  private mayLead(): boolean {
    const { membership, instanceId } = this.options;
    if (!membership.isLive(instanceId)) return false;
    if (membership.ownerOf(this.partner) === instanceId) return true;
    const row = membership.leaderOf(this.partner);
    const orphan = row === undefined || row.instanceId === instanceId || !membership.isLive(row.instanceId);
    if (!orphan) {
      this.orphanSince = undefined;
      return false;
    }
    this.orphanSince ??= Date.now();
    if (Date.now() - this.orphanSince < ORPHAN_MS) return false;
    // Taken as an orphan: not handed back to the owner that did not take it before a while.
    this.handOverAfter = Date.now() + HANDOVER_BACKOFF_MS;
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
      // An event stream stays open as long as its client wants: a hand-over ends it rather than wait for it.
      if (!(req.url ?? '').startsWith('/_sandbox/events')) {
        this.inFlight++;
        res.once('close', () => {
          if (--this.inFlight === 0) for (const waiter of this.settledWaiters.splice(0)) waiter();
        });
      }
      return this.state.sandbox.app(req, res);
    }
    // Refused before the body is read: a target that names a host is never sent anywhere (request-target.ts).
    if (!isOriginForm(req.url ?? '')) return refuse(req, res, 400, 'INVALID_REQUEST', ORIGIN_FORM_ONLY);
    void this.forward(req, res).catch((error: unknown) => {
      if (error instanceof DatabaseSilent) {
        // The database gone: every request says so until it is back; the log says why once a request, without a stack.
        this.options.logger.warn({ partner: this.partner }, `a request could not be sent on: ${error.message}`);
        return unavailable(req, res, "the sandbox's database does not answer, so no instance leads this partner just now; send it again in a few seconds (the operator's health says why)");
      }
      this.options.logger.error({ err: error, partner: this.partner }, 'forwarding a request to the leading instance failed');
      unavailable(req, res, 'the instance leading this partner could not be reached; send it again in a second');
    });
  };

  /**
   * What the operator's health says of the partner while this instance follows: which instance leads it, as the
   * database says, and the database's own trouble when it does not answer.
   */
  async followingHealth(): Promise<Record<string, unknown>> {
    let leader: Leader | undefined;
    const ping = await pingStore({ kind: 'postgres', ping: async () => void (leader = await this.options.leadership.leaderOf(this.partner)) });
    const seen = { role: 'follows', storeKind: 'postgres', storeLatencyMs: ping.ms };
    if (!ping.ok) return { status: 'unavailable', ...seen, storeError: ping.error };
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
      await state.sandbox.store.commit().catch(() => undefined);
      await this.options.leadership.release(this.partner);
    }
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    // Over twice what any endpoint takes: the answer the leader would give, without sending it megabytes first.
    if (body === undefined) return refuse(req, res, 413, 'PAYLOAD_TOO_LARGE', `body is larger than ${MAX_FORWARDED_BODY} bytes; the sandbox accepts at most 1 MiB (${BODY_LIMIT_BYTES} bytes)`);
    const deadline = Date.now() + (this.options.waitMs ?? LEADER_WAIT_MS);
    for (;;) {
      if (this.state.kind === 'leading') {
        // Led here now: the request goes in again at this instance's own address, as a new one, whole.
        if (this.url !== undefined && (await forwardRequest({ req, res, body, leaderUrl: this.url, instanceId: this.options.instanceId, forwardKey: this.options.leadership.forwardKey })) === 'sent') return;
        return unavailable(req, res, 'this instance has just taken the lead of this partner and is not listening yet; send it again in a second');
      }
      if (this.state.kind === 'stopped') return unavailable(req, res, 'this instance is stopping; send it again to another');
      const leader = await this.options.leadership.leaderOf(this.partner).catch((error: unknown) => {
        throw new DatabaseSilent(error);
      });
      if (leader?.url && leader.instanceId !== this.options.instanceId) {
        if ((await forwardRequest({ req, res, body, leaderUrl: leader.url, instanceId: this.options.instanceId, forwardKey: this.options.leadership.forwardKey })) === 'sent') return;
      }
      // No leader answering: take the lead if it is free, or wait a little for the one that took it. Without a lock
      // connection by the deadline (the database gone) there is no lead to take: the database's trouble is the answer.
      const led = await this.tryLead().catch((error: unknown) => {
        throw new DatabaseSilent(error);
      });
      if (led) continue;
      if (Date.now() > deadline) {
        if (!this.options.leadership.connected) throw new DatabaseSilent(new Error('the lock connection to the database is lost'));
        return unavailable(req, res, 'no instance leads this partner just now (one is taking over); send it again in a second');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
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
      // The lock went with a connection lost while the sandbox was being made (another instance may hold it now),
      // or the instance is stopping: no lead.
      if (this.options.leadership.generation !== generation || (this.state as State).kind !== 'following') {
        sandbox.close();
        await this.options.leadership.release(this.partner);
        return false;
      }
      if (this.url !== undefined) sandbox.checklist.sandboxUrl = this.url;
      this.state = { kind: 'leading', sandbox, epoch };
      this.options.observer?.moved('in', epoch === 1 ? 'first' : 'takeover', performance.now() - makingFrom);
      this.options.logger.info({ partner: this.partner, epoch }, `this instance leads partner '${this.partner}' (epoch ${epoch})`);
      return true;
    } catch (error) {
      await this.options.leadership.release(this.partner);
      throw error;
    }
  }

  /**
   * Gives the partner to `owner`: new requests wait for the new leader (forward), those in flight are answered,
   * deliveries under way settle, event streams are ended (their clients reconnect, and reach the new leader), the
   * state is committed, then the lock given up; `owner` takes it at its next check.
   */
  private async handOver(owner: string): Promise<void> {
    if (this.state.kind !== 'leading') return;
    const { sandbox } = this.state;
    this.state = { kind: 'handing', sandbox };
    this.options.logger.info({ partner: this.partner, to: owner }, `handing partner '${this.partner}' over to instance '${owner}', which should lead it now`);
    sandbox.events.close();
    const deadline = Date.now() + HANDOVER_DRAIN_MS;
    if (this.inFlight > 0) await Promise.race([new Promise<void>((resolve) => this.settledWaiters.push(resolve)), sleep(HANDOVER_DRAIN_MS)]);
    await Promise.race([sandbox.orders.settled(), sleep(Math.max(0, deadline - Date.now()))]);
    sandbox.close();
    await sandbox.store.commit().catch((error: unknown) => this.options.logger.warn({ err: error, partner: this.partner }, 'the last commit before a hand-over failed; the new leader reads what was stored'));
    if ((this.state as State).kind !== 'handing') return;
    this.state = { kind: 'following' };
    this.orphanSince = undefined;
    await this.options.leadership.release(this.partner);
    this.options.observer?.moved('out', 'handover');
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
