/**
 * Who leads each partner among the instances on one database. The leader holds a session-level advisory lock on the
 * partner, on a connection of its own named for the instance, for as long as it leads: PostgreSQL releases it when
 * that connection ends, however the process ended (a SIGKILL included), and another instance can then take it.
 * The table sandbox_leaders says where the leader is (its URL, for the others to forward to) and its epoch, which
 * grows at every change of leader and fences the writes of an instance that lost the lead (postgres-storage.ts).
 */
import pg from 'pg';

/** The first key of every lock the sandbox takes; the partner's name hashed is the second. */
const LOCK_SPACE = 'pos-sandbox partner';

export interface Leader {
  instanceId: string;
  url: string | null;
  epoch: number;
}

export class Leadership {
  private lost = false;
  private readonly lostListeners: Array<() => void> = [];

  private constructor(
    private readonly client: pg.Client,
    private readonly pool: pg.Pool,
    readonly instanceId: string,
  ) {
    // The lock connection gone (the database restarted, a network cut): every lock with it. The instance stops
    // leading at once, before another takes the lead.
    const gone = () => {
      if (this.lost) return;
      this.lost = true;
      for (const listener of this.lostListeners) listener();
    };
    client.on('error', gone);
    client.on('end', gone);
  }

  static async connect(url: string, pool: pg.Pool, instanceId: string): Promise<Leadership> {
    const client = new pg.Client({ connectionString: url, application_name: `pos-sandbox ${instanceId}`.slice(0, 63) });
    await client.connect();
    const leadership = new Leadership(client, pool, instanceId);
    leadership.forwardKey = (await pool.query<{ forward_key: string }>('SELECT forward_key FROM sandbox_cluster')).rows[0]!.forward_key;
    return leadership;
  }

  /** The database's forward key: what forward proofs are signed with (domain/forward-proof.ts); it never leaves the instance. */
  forwardKey = '';

  /** Called once if the lock connection is lost: every lead is lost with it. */
  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  /** Takes the lead of `partner` if no instance holds it: its new epoch, or undefined when another leads. */
  async tryLead(partner: string, url: string | null): Promise<number | undefined> {
    if (this.lost) return undefined;
    const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', [LOCK_SPACE, partner]);
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

  /** Gives up the lead of `partner` (a graceful stop): another instance takes it at its next try. */
  async release(partner: string): Promise<void> {
    if (this.lost) return;
    await this.client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [LOCK_SPACE, partner]).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.lost = true;
    await this.client.end().catch(() => undefined);
  }
}
