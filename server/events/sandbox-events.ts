/** The sandbox as a stream of numbered events (GET /_sandbox/events), the last `keep` held for a client that reconnects with Last-Event-ID. */
import { EventEmitter } from 'node:events';
import { Redactor } from '../journal/redactor.js';
import { EventStreams } from './stream-backlog.js';
import { isoTime } from '../http/iso-time.js';

export const EVENT_TYPES = ['order', 'refund', 'menu', 'journal', 'checklist', 'stress'] as const;
export type SandboxEventType = (typeof EVENT_TYPES)[number];

export interface SandboxEvent {
  id: number;
  type: SandboxEventType;
  time: string;
  data: unknown;
}

export class SandboxEvents extends EventEmitter<{ event: [SandboxEvent]; closed: [] }> {
  private recent: SandboxEvent[] = [];
  /** Held events whose data is redacted when first read: true for one held as its JSON text (an order). */
  private readonly unread = new Map<SandboxEvent, boolean>();
  /** The redactor's count of signatures when each held event's data was redacted: a replay redacts it again if one was learnt since. */
  private readonly redactedAt = new WeakMap<SandboxEvent, number>();
  private sequence = 0;
  /** The /events clients streaming now, and what waits for the slow ones. */
  readonly streams = new EventStreams();

  constructor(
    private readonly clock: () => number,
    /** Orders and refunds carry what the POS sent (a rejection reason, say): redacted like the journal. */
    private readonly redactor = new Redactor(''),
    readonly keep = 500,
  ) {
    super();
    // Every open /events stream is a listener; a dashboard plus a checklist plus curls must not warn.
    this.setMaxListeners(0);
    // A signature about to be forgotten may sit in data not read yet: redact it all while it is known.
    redactor.beforeForgetting(() => {
      for (const event of this.unread.keys()) this.render(event);
    });
  }

  /** The partner's lead went elsewhere: every stream ends, and its client reconnects to whichever instance leads it then. */
  close(): void {
    this.emit('closed');
  }

  /** Takes back events a store kept (history-keeper.ts), oldest first, redacted: the next id follows the newest. */
  restore(events: readonly SandboxEvent[]): void {
    this.recent = [...events.slice(-this.keep), ...this.recent];
    this.sequence = Math.max(this.sequence, ...events.map((event) => event.id));
  }

  publish(type: SandboxEventType, data: unknown): SandboxEvent {
    const event: SandboxEvent = { id: ++this.sequence, type, time: isoTime(this.clock()), data };
    if (type === 'journal') {
      // Journal summaries come from entries the journal has already redacted.
    } else if ((type === 'menu' || type === 'refund') && this.listenerCount('event') === 0) {
      // Made for this event or replaced, never changed: with no stream to send it to, it is redacted when first read, not here.
      this.unread.set(event, false);
    } else if (type === 'order' && this.listenerCount('event') === 0) {
      // An order changes in place, so it is held as its JSON text now and parsed and redacted when first read (docs/performance.md).
      event.data = JSON.stringify(data);
      this.unread.set(event, true);
    } else {
      event.data = this.redactor.value(data);
    }
    if (!this.unread.has(event)) this.redactedAt.set(event, this.redactor.learnt);
    this.recent.push(event);
    if (this.recent.length > this.keep * 1.1) {
      // In place: a copy of the events kept, at every tenth of them, was a visible share of what an event allocates.
      for (const old of this.recent.splice(0, this.recent.length - this.keep)) this.unread.delete(old);
    }
    this.emit('event', event);
    return event;
  }

  /** Redacts a held event's data: once, and again after a new signature was learnt. */
  private render(event: SandboxEvent): SandboxEvent {
    const packed = this.unread.get(event);
    if (packed === undefined && this.redactedAt.get(event) === this.redactor.learnt) return event;
    this.unread.delete(event);
    event.data = this.redactor.value(packed === true ? JSON.parse(event.data as string) : event.data);
    this.redactedAt.set(event, this.redactor.learnt);
    return event;
  }

  /** The held events after `lastId`, oldest first (what a reconnecting client missed), redacted. */
  since(lastId: number): SandboxEvent[] {
    return this.recent
      .filter((event) => event.id > lastId)
      .slice(-this.keep)
      .map((event) => this.render(event));
  }
}

/** One event in the text/event-stream format. */
export function formatServerSentEvent(event: SandboxEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
