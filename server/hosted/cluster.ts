/** serve --store: the database opened, this instance's lease taken, and each partner in a slot that leads it or follows the instance that does (rendezvous hashing). */
import type { RequestListener } from 'node:http';
import { STOPPING, STORE_SILENT, type Readiness } from '../control/sandbox-routes.js';
import { pingStore } from '../store/sandbox-store.js';
import type { Logger } from '../logger.js';
import type { Sandbox } from '../sandbox.js';
import type { OpenedPostgres } from '../store/open-postgres.js';
import type { DocumentStorage } from '../store/segment-storage.js';
import { Leadership, Membership } from './leadership.js';
import { PartnerSlot } from './partner-slot.js';
import type { InstanceMetrics } from './instance-metrics.js';

/** Answered by this instance itself: a load balancer asks whether this one can take requests, not a partner's leader; it names neither host nor database error. */
export function answerReadinessHere(listener: RequestListener, options: { readiness: Readiness; database: OpenedPostgres }): RequestListener {
  const store = { kind: 'postgres' as const, ping: async () => void (await options.database.pool.query('SELECT 1')) };
  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url?.toLowerCase() !== '/_sandbox/ready') return listener(req, res);
    void (async () => {
      const ping = options.readiness.draining ? undefined : await pingStore(store);
      const reason = options.readiness.draining ? STOPPING : ping?.ok === false ? STORE_SILENT : undefined;
      const body = JSON.stringify(reason === undefined ? { ready: true } : { ready: false, reason });
      res.writeHead(reason === undefined ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    })();
  };
}

export interface Cluster {
  database: OpenedPostgres;
  slots: Map<string, PartnerSlot>;
  /** Places a partner on this instance: it leads it if no other instance does, and follows otherwise. */
  add(partner: string, createSandbox: (storage: DocumentStorage, forwardKey: string) => Promise<Sandbox>): Promise<PartnerSlot>;
  /** Says where this instance answers, once it listens. */
  publish(url: string): Promise<void>;
  /** Gives up every lead (their refunds and orders are taken over by another instance) and closes the database. */
  stop(): Promise<void>;
}

export async function startCluster(options: { url: string; instanceId: string; logger: Logger; metrics?: InstanceMetrics; idleMs?: number }): Promise<Cluster> {
  const { openPostgres } = await import('../store/open-postgres.js');
  const database = await openPostgres(options.url, { log: (message) => options.logger.warn(message) });
  const leadership = await Leadership.connect(options.url, database.pool, options.instanceId, (message, level) => options.logger[level](message)).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  // Live before any partner is placed: instances started together see each other, and share the partners from the start.
  const membership = new Membership(leadership, Date.now, (message) => options.logger.warn(message));
  await membership.start().catch(async (error: unknown) => {
    await leadership.close();
    await database.close();
    throw error;
  });
  const slots = new Map<string, PartnerSlot>();
  const add = async (partner: string, createSandbox: (storage: DocumentStorage, forwardKey: string) => Promise<Sandbox>): Promise<PartnerSlot> => {
    const slot = new PartnerSlot({ partner, leadership, membership, pool: database.pool, where: database.where, instanceId: options.instanceId, logger: options.logger, createSandbox, observer: options.metrics, idleMs: options.idleMs ?? 0 });
    await slot.start();
    slots.set(partner, slot);
    return slot;
  };
  return {
    database,
    slots,
    add,
    publish: async (url) => {
      membership.publish(url);
      for (const slot of slots.values()) await slot.publish(url);
    },
    stop: async () => {
      for (const slot of slots.values()) await slot.stop();
      await membership.stop();
      await leadership.close();
      await database.close();
    },
  };
}
