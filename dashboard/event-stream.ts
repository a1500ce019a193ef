/** Read with fetch, not EventSource, to carry the admin token; one stream for the page, taken up again from the last event seen. */
import { createParser } from 'eventsource-parser';
import { authHeaders } from './control-api.js';
import type { SandboxEventType } from '../server/events/sandbox-events.js';

export interface SandboxEvent {
  id: number;
  /** The server's own list, as a type only: a type added there is known here. */
  type: SandboxEventType;
  time: string;
  data: unknown;
}

type Handler = (event: SandboxEvent) => void;
export type StreamState = 'connecting' | 'live' | 'reconnecting';

const handlers = new Set<Handler>();
const stateListeners = new Set<(state: StreamState) => void>();
let state: StreamState = 'connecting';
let started = false;

export function subscribe(handler: Handler): () => void {
  handlers.add(handler);
  start();
  return () => handlers.delete(handler);
}

export function onStreamState(listener: (state: StreamState) => void): () => void {
  stateListeners.add(listener);
  listener(state);
  return () => stateListeners.delete(listener);
}

function setState(next: StreamState): void {
  state = next;
  for (const listener of stateListeners) listener(next);
}

function start(): void {
  if (started) return;
  started = true;
  void follow();
}

async function follow(): Promise<never> {
  let lastId: string | undefined;
  for (;;) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...authHeaders() };
      if (lastId !== undefined) headers['last-event-id'] = lastId;
      const response = await fetch('/_sandbox/events', { headers, cache: 'no-store' });
      if (!response.ok || response.body === null) throw new Error(`the event stream answered ${response.status}`);
      setState('live');
      const parser = createParser({
        onEvent(message) {
          if (message.id !== undefined) lastId = message.id;
          if (message.event === 'dropped') return;
          let event: SandboxEvent;
          try {
            event = JSON.parse(message.data) as SandboxEvent;
          } catch {
            return;
          }
          for (const handler of handlers) handler(event);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // Taken up again below.
    }
    setState('reconnecting');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
