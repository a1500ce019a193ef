/**
 * Follows the sandbox's event stream (GET /_sandbox/events, server-sent events) and hands each event's data to
 * `onData` until the process is stopped. A dropped or closed stream is taken up again from the last event seen
 * (Last-Event-ID), as the stream asks its clients to; the sandbox going away ends it with a ControlError.
 */
import { createParser } from 'eventsource-parser';
import { ControlError, type ControlClient } from './control-client.js';

export async function followEvents(client: ControlClient, types: string, onData: (data: unknown) => void): Promise<never> {
  let lastId: string | undefined;
  for (;;) {
    const response = await client.open(`/_sandbox/events?types=${types}`, lastId === undefined ? {} : { 'last-event-id': lastId });
    const parser = createParser({
      onEvent(event) {
        if (event.id !== undefined) lastId = event.id;
        if (event.event === 'dropped') return;
        try {
          onData((JSON.parse(event.data) as { data: unknown }).data);
        } catch {
          // Not an event of ours: skipped rather than ending the stream.
        }
      },
    });
    const decoder = new TextDecoder();
    let received = false;
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        received = true;
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      // A stream that carried something is taken up again: if the sandbox went away, opening it again says so
      // ("cannot reach the sandbox at …"), which tells more than the socket's own "aborted". One that broke before
      // its first byte would only break again.
      if (!received) throw new ControlError(`the event stream of ${client.baseUrl} broke off: ${(error as Error).message}`);
    }
  }
}
