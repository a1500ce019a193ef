/** GET /_sandbox/events: server-sent events over a real socket. */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_BACKLOG_LIMIT_BYTES } from '../events/stream-backlog.js';
import { closeServers, createOrder, listen, liveSandbox, scriptedPos } from './live.js';
import { orderEnvelope, postRefund, putMenu, testSandbox } from './helpers.js';

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

  it('ends every open stream when the sandbox closes (a hand-over to another instance), so its clients reconnect there', async () => {
    const sandbox = await liveSandbox();
    const response = await fetch(`${sandbox.url}/_sandbox/events`);
    const reader = response.body!.getReader();
    await reader.read();
    expect(sandbox.events.streams.stats().clients).toBe(1);
    sandbox.events.close();
    // The stream ends (done), rather than hanging until the client gives up; it had asked for a retry in 2 s.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    expect(sandbox.events.streams.stats().clients).toBe(0);
    expect(sandbox.events.listenerCount('event') + sandbox.events.listenerCount('closed')).toBe(0);
  });

  it('drops a client that stops reading once 1 MiB waits for it, holding no more than that meanwhile', async () => {
    const sandbox = await testSandbox();
    let stream: ServerResponse | undefined;
    const url = new URL(
      await listen((req: IncomingMessage, res: ServerResponse) => {
        if (req.url?.startsWith('/_sandbox/events')) stream = res;
        sandbox.app(req, res);
      }),
    );
    // A raw socket that reads the head and then nothing: the kernel's buffers fill, then the server's.
    const client = connect(Number(url.port), url.hostname);
    client.write(`GET /_sandbox/events?types=menu HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    const chunks: Buffer[] = [(await once(client, 'data'))[0] as Buffer];
    client.pause();
    client.on('data', (chunk: Buffer) => chunks.push(chunk));

    const event = { padding: 'x'.repeat(64 * 1024) };
    let published = 0;
    let largestHeld = 0;
    while (sandbox.events.listenerCount('event') > 0 && published < 1000) {
      sandbox.events.publish('menu', event);
      published += 1;
      largestHeld = Math.max(largestHeld, stream!.writableLength + sandbox.events.streams.stats().waitingBytes);
      // Lets the socket hand what it can to the kernel, as between two real requests.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sandbox.events.listenerCount('event')).toBe(0);
    expect(sandbox.events.streams.stats()).toEqual({ clients: 0, waitingBytes: 0, dropped: 1 });
    // Node's own buffer (16 KiB and the event that crossed it) plus the backlog, never the 64 MB published.
    expect(largestHeld).toBeLessThanOrEqual(EVENT_BACKLOG_LIMIT_BYTES + 16 * 1024 + 2 * 70 * 1024);
    expect(stream!.writableLength).toBeLessThanOrEqual(16 * 1024 + 2 * 70 * 1024);

    // Reading again, the client gets what was in flight, the reason, and the end of the connection.
    client.resume();
    await once(client, 'end');
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toContain(
      `event: dropped\ndata: {"type":"dropped","reason":"this client read too slowly: more than ${EVENT_BACKLOG_LIMIT_BYTES} bytes of events waited for it, so the sandbox stopped sending; reconnect with Last-Event-ID to catch up (the last 500 events are held)"}\n\n`,
    );
    expect(text.endsWith('\r\n0\r\n\r\n')).toBe(true);
    client.destroy();
  });

  it('answers 400 for an unknown event type', async () => {
    const sandbox = await liveSandbox();
    const response = await request(sandbox.app).get('/_sandbox/events?types=order,pizza');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(orderEnvelope('INVALID_REQUEST', "unknown event type 'pizza'; types are order, refund, menu, journal, checklist, stress"));
  });
});
