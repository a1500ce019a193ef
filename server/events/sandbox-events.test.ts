import { describe, expect, it } from '@jest/globals';
import { SandboxEvents, formatServerSentEvent, type SandboxEvent } from './sandbox-events.js';
import { Redactor, REMEMBERED_SIGNATURES } from '../journal/redactor.js';
import { signHs256, validClaims } from '../test/test-identity.js';

const KEY = 'the-partner-key-0123456789abcdef';
const token = signHs256({ alg: 'HS256', typ: 'JWT' }, validClaims(), KEY);
const signature = token.split('.')[2]!;
const outcome = (name: string) => ({ form: 'A', locationId: 'loc-std-001', changes: [{ itemId: 'itm-a', field: 'Name', from: 'A', to: name }] });

describe('SandboxEvents', () => {
  it('takes back stored events for a replay, and numbers the next after the newest', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    const held: SandboxEvent[] = [1, 2, 3].map((id) => ({ id: id + 40, type: 'refund', time: '2026-11-27T12:00:00.000Z', data: { n: id } }));
    events.restore(held);
    expect(events.since(41).map((event) => event.id)).toEqual([42, 43]);
    expect(events.publish('refund', { n: 4 }).id).toBe(44);
  });

  it('holds the last `keep` events, oldest first, however many were published', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY), 10);
    for (let n = 1; n <= 105; n++) events.publish(n % 2 === 0 ? 'refund' : 'order', { n });
    const ids = (list: Array<{ id: number }>) => list.map((event) => event.id);
    expect(ids(events.since(0))).toEqual([96, 97, 98, 99, 100, 101, 102, 103, 104, 105]);
    expect(ids(events.since(102))).toEqual([103, 104, 105]);
    expect(events.since(0).map((event) => event.data)).toEqual(Array.from({ length: 10 }, (_, i) => ({ n: 96 + i })));
  });

  it('redacts a menu outcome published with no stream when it is read, in the replay and in its text', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    events.publish('menu', outcome(`named ${KEY}`));
    const [event] = events.since(0);
    expect(event!.data).toEqual(outcome('named [redacted]'));
    expect(formatServerSentEvent(event!)).not.toContain(KEY);
    expect(JSON.stringify(events.since(0))).not.toContain(KEY);
  });

  it('redacts a refund published with no stream when it is read, and a later refund record does not change it', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    const pending = { id: 'rf-1', status: 'PENDING', detail: `key ${KEY}` };
    events.publish('refund', pending);
    events.publish('refund', { ...pending, status: 'FAILED' });
    expect(events.since(0).map((event) => event.data)).toEqual([
      { id: 'rf-1', status: 'PENDING', detail: 'key [redacted]' },
      { id: 'rf-1', status: 'FAILED', detail: 'key [redacted]' },
    ]);
    expect(JSON.stringify(events.since(0))).not.toContain(KEY);
  });

  it('holds an order published with no stream as it was then, redacted when read: a delivery changes the record in place', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    const order = { OrderId: 'ord-1', Status: 'NEW', Reason: `key ${KEY}`, Items: [{ Name: `Soup ${KEY}`, Quantity: 1 }] };
    events.publish('order', order);
    order.Status = 'ACCEPTED';
    order.Items[0]!.Quantity = 2;
    events.publish('order', order);
    expect(events.since(0).map((event) => event.data)).toEqual([
      { OrderId: 'ord-1', Status: 'NEW', Reason: 'key [redacted]', Items: [{ Name: 'Soup [redacted]', Quantity: 1 }] },
      { OrderId: 'ord-1', Status: 'ACCEPTED', Reason: 'key [redacted]', Items: [{ Name: 'Soup [redacted]', Quantity: 2 }] },
    ]);
    // Read once, redacted once: a second read gives the same values, not the text again or a second redaction.
    expect(events.since(0).map((event) => event.data)).toEqual(events.since(0).map((event) => event.data));
    expect(formatServerSentEvent(events.since(0)[0]!)).toBe(
      `id: 1\nevent: order\ndata: ${JSON.stringify({ id: 1, type: 'order', time: '1970-01-01T00:00:00.000Z', data: { OrderId: 'ord-1', Status: 'NEW', Reason: 'key [redacted]', Items: [{ Name: 'Soup [redacted]', Quantity: 1 }] } })}\n\n`,
    );
  });

  it('sends a listening stream an order redacted at once, as an object', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    const sent: SandboxEvent[] = [];
    events.on('event', (event: SandboxEvent) => sent.push(event));
    events.publish('order', { OrderId: 'ord-2', Reason: KEY });
    expect(sent.map((event) => event.data)).toEqual([{ OrderId: 'ord-2', Reason: '[redacted]' }]);
  });

  it('redacts at once what a listening stream is sent', () => {
    const events = new SandboxEvents(() => 0, new Redactor(KEY));
    const sent: string[] = [];
    events.on('event', (event: SandboxEvent) => sent.push(formatServerSentEvent(event)));
    events.publish('menu', outcome(KEY));
    events.publish('refund', { reason: KEY });
    expect(sent.join('')).not.toContain(KEY);
  });

  it('redacts an unread order before the redactor forgets a signature in it', () => {
    const redactor = new Redactor(KEY);
    const events = new SandboxEvents(() => 0, redactor);
    redactor.remember(`Bearer ${token}`);
    events.publish('order', { OrderId: 'ord-3', Reason: `s=${signature}` });
    for (let i = 0; i < REMEMBERED_SIGNATURES; i++) redactor.remember(`a.b.${String(i).padStart(20, 'x')}`);
    expect(events.since(0)[0]!.data).toEqual({ OrderId: 'ord-3', Reason: 's=[redacted]' });
  });

  it('redacts an unread menu outcome before the redactor forgets a signature in it', () => {
    const redactor = new Redactor(KEY);
    const events = new SandboxEvents(() => 0, redactor);
    redactor.remember(`Bearer ${token}`);
    events.publish('menu', outcome(`s=${signature}`));
    for (let i = 0; i < REMEMBERED_SIGNATURES; i++) redactor.remember(`a.b.${String(i).padStart(20, 'x')}`);
    expect(events.since(0)[0]!.data).toEqual(outcome('s=[redacted]'));
  });
});
