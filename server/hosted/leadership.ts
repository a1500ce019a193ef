/** Who leads each partner: the leader holds an advisory lock on a connection of its own, which PostgreSQL frees however the process ends; sandbox_leaders says where it is, and its epoch fences a former leader's writes. */
import pg from 'pg';
import { ownerOf } from './placement.js';

/** The first key of every lock the sandbox takes; the partner's name hashed is the second. */
const LOCK_SPACE = 'pos-sandbox partner';

export interface Leader {
  instanceId: string;
  url: string | null;
  epoch: number;
}

/** How long after the lock connection is lost the instance connects again, and again after each failed try. */
export const RECONNECT_MS = 1000;

export class Leadership {
  /** The lock connection; undefined while it is lost, until a new one is made. */
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly lostListeners: Array<() => void> = [];

  private constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    readonly instanceId: string,
    private readonly log: (message: string, level: 'warn' | 'info') => void,
  ) {}

  static async connect(url: string, pool: pg.Pool, instanceId: string, log: (message: string, level: 'warn' | 'info') => void = () => undefined): Promise<Leadership> {
    const leadership = new Leadership(url, pool, instanceId, log);
    leadership.hold(await leadership.open());
    try {
      leadership.forwardKey = (await pool.query<{ forward_key: string }>('SELECT forward_key FROM sandbox_cluster')).rows[0]!.forward_key;
    } catch (error) {
      await leadership.close();
      throw error;
    }
    return leadership;
  }

  /** The database's forward key: what forward proofs are signed with (forwarding.ts); it never leaves the instance. */
  forwardKey = '';

  /** Grows at each lost lock connection: a lead taken on a connection lost before the sandbox was ready is no lead. */
  generation = 0;

  /** Whether the lock connection is there: without it no lead can be taken. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Called each time the lock connection is lost: every lead is lost with it. */
  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  /** Takes the lead of `partner` if no instance holds it: its new epoch, or undefined when another leads. */
  async tryLead(partner: string, url: string | null): Promise<number | undefined> {
    const client = this.client;
    if (client === undefined) return undefined;
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', [LOCK_SPACE, partner]);
    if (!rows[0]?.locked) return undefined;
    const epoch = await this.pool.query<{ epoch: string }>(
      `INSERT INTO sandbox_leaders (partner, instance_id, url, epoch) VALUES ($1, $2, $3, 1)
       ON CONFLICT (partner) DO UPDATE SET instance_id = EXCLUDED.instance_id, url = EXCLUDED.url, epoch = sandbox_leaders.epoch + 1, since = now()
       RETURNING epoch`,
      [partner, this.instanceId, url],
    );
    return Number(epoch.rows[0]!.epoch);
  }

  /** Says where this instance answers, for the partners it leads (known once it listens). */
  async publish(partner: string, epoch: number, url: string): Promise<void> {
    await this.pool.query('UPDATE sandbox_leaders SET url = $3 WHERE partner = $1 AND epoch = $2', [partner, epoch, url]);
  }

  async leaderOf(partner: string): Promise<Leader | undefined> {
    const { rows } = await this.pool.query<{ instance_id: string; url: string | null; epoch: string }>('SELECT instance_id, url, epoch FROM sandbox_leaders WHERE partner = $1', [partner]);
    const row = rows[0];
    return row === undefined ? undefined : { instanceId: row.instance_id, url: row.url, epoch: Number(row.epoch) };
  }

  /** Renewed on the lock connection (an instance without one cannot lead); undefined while that connection is lost. */
  async renewLease(leaseMs: number, url: string | null): Promise<{ live: Array<{ id: string; url: string | null }>; leaders: Map<string, { instanceId: string; epoch: number }> } | undefined> {
    const client = this.client;
    if (client === undefined) return undefined;
    await client.query(
      `INSERT INTO sandbox_instances (instance_id, lease_until, url) VALUES ($1, now() + $2 * interval '1 millisecond', $3)
       ON CONFLICT (instance_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, url = EXCLUDED.url`,
      [this.instanceId, leaseMs, url],
    );
    // Rows of instances long gone are no use to anyone: an hour past their lease, they go.
    await client.query("DELETE FROM sandbox_instances WHERE lease_until < now() - interval '1 hour'");
    const live = await client.query<{ instance_id: string; url: string | null }>('SELECT instance_id, url FROM sandbox_instances WHERE lease_until > now() ORDER BY instance_id');
    const leaders = await client.query<{ partner: string; instance_id: string; epoch: string }>('SELECT partner, instance_id, epoch FROM sandbox_leaders');
    return { live: live.rows.map((row) => ({ id: row.instance_id, url: row.url })), leaders: new Map(leaders.rows.map((row) => [row.partner, { instanceId: row.instance_id, epoch: Number(row.epoch) }])) };
  }

  /** Ends this instance's lease (a graceful stop): its partners go to the others at their next try. */
  async leave(): Promise<void> {
    await this.pool.query('DELETE FROM sandbox_instances WHERE instance_id = $1', [this.instanceId]).catch(() => undefined);
  }

  /** Put away: the row keeps the epoch that fences earlier leaders, and names no instance. */
  async putAway(partner: string, epoch: number): Promise<void> {
    await this.pool.query("UPDATE sandbox_leaders SET instance_id = '', url = NULL, since = now() WHERE partner = $1 AND epoch = $2", [partner, epoch]);
  }

  /** Gives up the lead of `partner` (a graceful stop): another instance takes it at its next try. */
  async release(partner: string): Promise<void> {
    await this.client?.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [LOCK_SPACE, partner]).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<pg.Client> {
    // TCP keepalive finds a silently cut connection in minutes; the epoch fences this instance's writes meanwhile.
    const client = new pg.Client({ connectionString: this.url, application_name: `pos-sandbox ${this.instanceId}`.slice(0, 63), keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** The lock connection gone: the instance stops leading at once and reconnects until the database answers, so a database restart never leaves partners without a leader. */
  private hold(client: pg.Client): void {
    this.client = client;
    const gone = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.generation++;
      for (const listener of this.lostListeners) listener();
      if (this.closed) return;
      this.log(`the lock connection to the database was lost; connecting again every ${RECONNECT_MS / 1000} s`, 'warn');
      this.reconnect();
    };
    client.on('error', gone);
    client.on('end', gone);
  }

  private reconnect(): void {
    this.retry = setTimeout(() => {
      this.open().then(
        async (client) => {
          if (this.closed) return void (await client.end().catch(() => undefined));
          this.hold(client);
          this.log('the lock connection to the database is back: partners without a leader are taken at the next try', 'info');
        },
        () => this.reconnect(),
      );
    }, RECONNECT_MS);
    this.retry.unref();
  }
}

/** Who is live and who leads what, as last read at each heartbeat; every slot asks it who should lead. */

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
