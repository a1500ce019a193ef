/** /_sandbox/ready for load balancers, and the store's part of /_sandbox/health: kind, latency, and a store that stops answering. */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { memoryStorage, type DocumentStorage } from '../store/segment-storage.js';
import { testSandbox } from './helpers.js';

/** A real memory store whose ping fails once `down` is set: a database that went away. */
function failingStore(): { storage: DocumentStorage; down: () => void } {
  const real = memoryStorage();
  let down = false;
  return {
    storage: { ...real, kind: real.kind, where: real.where, persistent: real.persistent, ping: () => (down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : real.ping()) },
    down: () => (down = true),
  };
}

describe('GET /_sandbox/ready', () => {
  it('answers 200 with the instance id, without a token even behind --admin-token', async () => {
    const { app } = await testSandbox({ adminToken: 'an-admin-token-of-16+' });
    const ready = await request(app).get('/_sandbox/ready');
    expect([ready.status, ready.body]).toEqual([200, { ready: true, instanceId: expect.stringMatching(/^.+-\d+$/) }]);
    // Everything else there still needs the token.
    expect((await request(app).get('/_sandbox/health')).status).toBe(401);
  });

  it('answers 503 once the process is stopping, so the load balancer sends no more', async () => {
    const sandbox = await testSandbox();
    sandbox.readiness.draining = true;
    const ready = await request(sandbox.app).get('/_sandbox/ready');
    expect([ready.status, ready.body]).toEqual([503, { ready: false, instanceId: expect.any(String), reason: 'stopping: finishing the requests in flight' }]);
  });

  it('answers 503 naming the cause when the store does not answer, and health says the same', async () => {
    const store = failingStore();
    const sandbox = await testSandbox({ storage: store.storage });
    expect((await request(sandbox.app).get('/_sandbox/ready')).status).toBe(200);
    store.down();
    const ready = await request(sandbox.app).get('/_sandbox/ready');
    expect([ready.status, ready.body]).toEqual([503, { ready: false, instanceId: expect.any(String), reason: 'the memory store did not answer: connect ECONNREFUSED 127.0.0.1:5432' }]);
    const health = await request(sandbox.app).get('/_sandbox/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', storeKind: 'memory', storeError: 'the memory store did not answer: connect ECONNREFUSED 127.0.0.1:5432' });
  });

  it('refuses a query parameter in the envelope, as every control endpoint does', async () => {
    const { app } = await testSandbox();
    const answer = await request(app).get('/_sandbox/ready?verbose=1');
    expect([answer.status, answer.body]).toEqual([400, { errors: [{ code: 'INVALID_REQUEST', message: "unknown query parameter 'verbose'; this endpoint takes none" }] }]);
  });
});
