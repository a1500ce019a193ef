/** GET /_sandbox/events: server-sent events over a real socket (SANDBOX-SPEC §8). */
import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { closeServers, createOrder, liveSandbox, scriptedPos } from './live.js';
import { orderEnvelope, postRefund, putMenu } from './helpers.js';

afterEach(closeServers);

interface StreamEvent {
  id: string;
  event: string;
  data: { id: number; type: string; data: Record<string, unknown> };
}

/** Opens the stream and collects events until `until` says stop; aborts the connection afterwards. */
async function collect(url: string, until: (events: StreamEvent[]) => boolean, act: () => Promise<unknown>, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers });
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.getReader();
  const events: StreamEvent[] = [];
  let buffer = '';
  const acting = act();
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += Buffer.from(value).toString('utf8');
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop()!;
    for (const block of blocks) {
      const fields = Object.fromEntries(block.split('\n').filter((line) => !line.startsWith(':') && line.includes(': ')).map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
      if (fields.data) events.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) });
    }
  }
  await acting;
  controller.abort();
  return events;
}

describe('GET /_sandbox/events', () => {
  it('streams an order through its states, with the journal entries of its deliveries', async () => {
    const pos = await scriptedPos([{ status: 200, body: { ExternalId: 'X-1', Status: 'ACCEPTED' } }]);
    const sandbox = await liveSandbox({ posOrderUrl: pos.url });
    const events = await collect(
      `${sandbox.url}/_sandbox/events?types=order,journal`,
      (seen) => seen.some((e) => e.event === 'order' && e.data.data.Status === 'ACCEPTED'),
      () => createOrder(sandbox.app, { template: 'standard', orderId: 'ord-ev-1' }),
    );
    expect(events.filter((e) => e.event === 'order').map((e) => e.data.data.Status)).toEqual(['NEW', 'DISPATCHED', 'DISPATCHED', 'ACCEPTED']);
    expect(events.find((e) => e.event === 'journal')!.data.data).toMatchObject({ direction: 'outbound', orderId: 'ord-ev-1', status: 200, findings: [] });
    expect(events.map((e) => Number(e.id))).toEqual([...events.map((e) => e.data.id)].sort((a, b) => a - b));
  });

  it('streams refunds as they are accepted and settled, and menu changes', async () => {
    const sandbox = await liveSandbox();
    const events = await collect(
      `${sandbox.url}/_sandbox/events?types=refund,menu`,
      (seen) => seen.length >= 3,
      async () => {
        await postRefund(sandbox.app);
        await sandbox.refunds.runDue();
        await putMenu(sandbox.app, { LocationId: 'loc-std-001', Items: [{ Id: 'itm-margherita', Name: 'Margherita', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1190 }] }] });
      },
    );
    expect(events.map((e) => [e.event, e.data.data.status ?? e.data.data.form])).toEqual([
      ['refund', 'PENDING'],
      ['refund', 'PROCESSED'],
      ['menu', 'A'],
    ]);
  });

  it('replays what a client missed after Last-Event-ID', async () => {
    const sandbox = await liveSandbox();
    await postRefund(sandbox.app);
    await postRefund(sandbox.app);
    const all = sandbox.events.since(0);
    const events = await collect(`${sandbox.url}/_sandbox/events`, (seen) => seen.length >= all.length - 1, async () => undefined, {
      'last-event-id': String(all[0]!.id),
    });
    expect(events.map((e) => e.data.id)).toEqual(all.slice(1).map((e) => e.id));
  });

  it('answers 400 for an unknown event type', async () => {
    const sandbox = await liveSandbox();
    const response = await request(sandbox.app).get('/_sandbox/events?types=order,pizza');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(orderEnvelope('INVALID_REQUEST', "unknown event type 'pizza'; types are order, refund, menu, journal"));
  });
});
