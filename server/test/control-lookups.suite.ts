/** Every /_sandbox route that looks a thing up by id finds only the things it holds, never what every object inherits. */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { orderEnvelope, testSandbox } from './helpers.js';

const INHERITED_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

const ROUTES: Array<[string, (id: string) => string, (id: string) => string]> = [
  ['GET', (id) => `/_sandbox/locations/${id}/menu`, (id) => `no location '${id}'; GET /_sandbox/locations lists them`],
  ['GET', (id) => `/_sandbox/orders/${id}`, (id) => `no order '${id}'; GET /_sandbox/orders lists them`],
  ['POST', (id) => `/_sandbox/orders/${id}/resend`, (id) => `no order '${id}'; GET /_sandbox/orders lists them`],
  ['GET', (id) => `/_sandbox/faults/${id}`, (id) => `no fault rule '${id}' in force (a rule used up expires); GET /_sandbox/faults lists them`],
  ['DELETE', (id) => `/_sandbox/faults/${id}`, (id) => `no fault rule '${id}' in force (a rule used up expires); GET /_sandbox/faults lists them`],
  ['GET', (id) => `/_sandbox/journal/${id}`, (id) => `no journal entry '${id}'; it may have been dropped (the journal keeps 5000)`],
];

describe('lookups by id on the control API', () => {
  it.each(ROUTES.flatMap(([method, path, message]) => INHERITED_NAMES.map((id) => [method, path(id), message(id)] as const)))(
    'answers %s %s with 404 NOT_FOUND',
    async (method, path, message) => {
      const { app } = await testSandbox();
      const response = await request(app)[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(orderEnvelope('NOT_FOUND', message));
    },
  );
});

describe('the lookups behind those routes', () => {
  it.each(INHERITED_NAMES)('find nothing for %s in the store, the order desk, the fault book or the journal', async (id) => {
    const sandbox = await testSandbox();
    expect(sandbox.store.menu(id)).toBeUndefined();
    expect(sandbox.store.orders.get(id)).toBeUndefined();
    expect(sandbox.store.orders.lookup(id)).toEqual([]);
    expect(sandbox.store.refunds.get(id)).toBeUndefined();
    expect(sandbox.orders.get(id)).toBeUndefined();
    expect(sandbox.faults.get(id)).toBeUndefined();
    expect(sandbox.journal.get(id)).toBeUndefined();
  });

  it.each(INHERITED_NAMES)('refuses an order from the template %s as a template that does not exist', async (template) => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/orders').set('content-type', 'application/json').send(JSON.stringify({ template }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(orderEnvelope('INVALID_REQUEST', `template must be one of hub, kiosk, standard, got string "${template}"`));
  });
});
