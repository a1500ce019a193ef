/**
 * A refund that falls due while the store does not answer (the database away, or the lead lost to another instance)
 * is said in the log, and the process goes on: the decision's timer had nobody to answer to, and its rejection once
 * ended the process (seen when a bench stopped PostgreSQL under instances that were stopping).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import request from 'supertest';
import { createSandbox } from '../sandbox.js';
import { memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { cleanHeaders, fixtures, PARTNER } from './helpers.js';
import { mintPosToken } from '../tokens/mint-pos-token.js';

/** A memory store whose writes fail while `down` is set, as a database that went away. */
function storeThatGoesAway(): { storage: DocumentStorage; down: { now: boolean } } {
  const inner = memoryStorage();
  const down = { now: false };
  const refuse = () => Promise.reject(new Error('Connection terminated unexpectedly'));
  const storage: DocumentStorage = {
    ...inner,
    where: inner.where,
    persistent: inner.persistent,
    kind: inner.kind,
    open<T>(name: string) {
      const adapter = inner.open<T>(name);
      return { read: () => adapter.read(), write: (data: T) => (down.now ? refuse() : adapter.write(data)) };
    },
    append: (name, text) => (down.now ? refuse() : inner.append(name, text)),
    rewrite: (name, text) => (down.now ? refuse() : inner.rewrite(name, text)),
  };
  return { storage, down };
}

const unhandled: unknown[] = [];
const note = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', note);
});

describe('a refund due while the store does not answer', () => {
  it('is logged, leaves no unhandled rejection, and is stored by the next write once the store is back', async () => {
    process.on('unhandledRejection', note);
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const { storage, down } = storeThatGoesAway();
    const sandbox = await createSandbox({ fixtures, partner: PARTNER, storage, logger, refundDelayMs: 30 });
    const { token } = mintPosToken({ posName: PARTNER.name, key: PARTNER.nonProdKey, locationId: 'loc-std-001', ttlSeconds: 300, nowSeconds: Math.floor(Date.now() / 1000) });
    const answer = await request(sandbox.app).post('/v2/order/refund').set(cleanHeaders(token)).send('{"ExternalId":"POS-STD-1001"}');
    expect(answer.status).toBe(200);
    down.now = true;
    for (let waited = 0; lines.length === 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    expect(lines.map((line) => JSON.parse(line).msg)).toContain('refunds fell due but could not be stored: they stay decided here, and the next write stores them');
    // Back: the next write (another refund) stores the decision made meanwhile.
    down.now = false;
    await sandbox.store.commit();
    const stored = JSON.stringify(await storage.readAll());
    // The decision made while the store was away reached it: the order it refunded is stored REFUNDED.
    expect(stored).toContain('"ExternalId":"POS-STD-1001","Status":"REFUNDED"');
    sandbox.close();
  });
});
