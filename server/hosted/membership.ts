/**
 * Which instances are live, and who leads what, as this instance last read it: its lease renewed every
 * HEARTBEAT_MS (leadership.ts), the live instances and the leaders read in the same turn. Every partner's slot
 * asks it who should lead (rendezvous hashing over the live instances, rendezvous.ts), so the partners spread
 * over the instances with no coordination but the database.
 */
import { ownerOf } from './rendezvous.js';
import type { Leadership } from './leadership.js';

/** How often the lease is renewed and the others read. */
export const HEARTBEAT_MS = 1000;
/** How long a lease lasts: an instance that died is given up this long after its last renewal, at the latest. */
export const LEASE_MS = 3000;

export interface LeaderRow {
  instanceId: string;
  epoch: number;
}

/** The instance id of a partner put away: it has no leader until its next request. */
export const PUT_AWAY = '';

export class Membership {
  private live: string[] = [];
  private readonly urls = new Map<string, string>();
  /** Where this instance answers, once it listens: the others send a put-away partner's first request there. */
  private url: string | null = null;
  private leaders = new Map<string, LeaderRow>();
  /** When each live instance was first seen live: a partner moves to an instance only once it has stayed a while. */
  private readonly liveSince = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leadership: Leadership,
    private readonly clock: () => number = Date.now,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  get instanceId(): string {
    return this.leadership.instanceId;
  }

  /** Renews the lease twice, a heartbeat apart (instances started together see each other), then every heartbeat. */
  async start(): Promise<void> {
    await this.beat();
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS));
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch((error: unknown) => this.log(`could not renew this instance's lease: ${error instanceof Error ? error.message : String(error)}`)), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Where this instance answers; said at the next heartbeat. */
  publish(url: string): void {
    this.url = url;
  }

  /** Where a live instance answers, as it said. */
  urlOf(instanceId: string): string | undefined {
    return this.urls.get(instanceId);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.leadership.leave();
  }

  /** The instance that should lead `partner`, among the live ones; undefined when none is known live. */
  ownerOf(partner: string): string | undefined {
    return ownerOf(partner, this.live);
  }

  /** Whether `instanceId` has been live for at least `ms`. */
  liveFor(instanceId: string, ms: number): boolean {
    const since = this.liveSince.get(instanceId);
    return since !== undefined && this.clock() - since >= ms;
  }

  isLive(instanceId: string): boolean {
    return this.live.includes(instanceId);
  }

  /** Who led `partner` at the last heartbeat, as the database said. */
  leaderOf(partner: string): LeaderRow | undefined {
    return this.leaders.get(partner);
  }

  /** The live instances, as last read. */
  get instances(): readonly string[] {
    return this.live;
  }

  private async beat(): Promise<void> {
    const seen = await this.leadership.renewLease(LEASE_MS, this.url);
    // Without the lock connection this instance leads nothing, and counts itself out until it is back.
    const live = seen?.live.map((instance) => instance.id) ?? this.live.filter((id) => id !== this.instanceId);
    for (const instance of seen?.live ?? []) if (instance.url !== null) this.urls.set(instance.id, instance.url);
    const now = this.clock();
    for (const id of live) if (!this.liveSince.has(id)) this.liveSince.set(id, now);
    for (const id of [...this.liveSince.keys()]) if (!live.includes(id)) this.liveSince.delete(id);
    this.live = live;
    if (seen !== undefined) this.leaders = seen.leaders;
  }
}
