/**
 * What happens in the sandbox as a stream (GET /_sandbox/events): orders, refunds, menu changes and
 * journal entries, numbered, with the last `keep` held for a client that reconnects with Last-Event-ID.
 */
import { EventEmitter } from 'node:events';
import { Redactor } from '../journal/redactor.js';
import { EventStreams } from './stream-backlog.js';

export const EVENT_TYPES = ['order', 'refund', 'menu', 'journal'] as const;
export type SandboxEventType = (typeof EVENT_TYPES)[number];

export interface SandboxEvent {
  id: number;
  type: SandboxEventType;
  time: string;
  data: unknown;
}

export class SandboxEvents extends EventEmitter<{ event: [SandboxEvent] }> {
  private recent: SandboxEvent[] = [];
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
  }

  publish(type: SandboxEventType, data: unknown): SandboxEvent {
    // Journal summaries come from entries the journal has already redacted.
    const safe = type === 'journal' ? data : this.redactor.value(data);
    const event: SandboxEvent = { id: ++this.sequence, type, time: new Date(this.clock()).toISOString(), data: safe };
    this.recent.push(event);
    if (this.recent.length > this.keep * 1.1) this.recent = this.recent.slice(-this.keep);
    this.emit('event', event);
    return event;
  }

  /** The held events after `lastId`, oldest first (what a reconnecting client missed). */
  since(lastId: number): SandboxEvent[] {
    return this.recent.filter((event) => event.id > lastId).slice(-this.keep);
  }
}

/** One event in the text/event-stream format. */
export function formatServerSentEvent(event: SandboxEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify({ ...event })}\n\n`;
}
