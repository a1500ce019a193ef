/** The events waiting for one client that reads slower than they come, up to `limitBytes`; past it the client is dropped, so it cannot grow the process. */

/** 1 MiB of events may wait for one client: a few thousand journal summaries, or a few hundred order events. */
export const EVENT_BACKLOG_LIMIT_BYTES = 1024 * 1024;

export type BacklogOutcome = 'written' | 'waiting' | 'overflow';

export class StreamBacklog {
  private readonly waiting: Array<{ chunk: string; bytes: number }> = [];
  private waitingBytes = 0;
  private blocked = false;
  private overflowed = false;

  constructor(
    private readonly write: (chunk: string) => boolean,
    readonly limitBytes = EVENT_BACKLOG_LIMIT_BYTES,
  ) {}

  /** Writes `chunk`, or keeps it until 'drain'; 'overflow' (for good) when it would take the backlog past the limit. */
  send(chunk: string): BacklogOutcome {
    if (this.overflowed) return 'overflow';
    if (!this.blocked) {
      this.blocked = !this.write(chunk);
      return 'written';
    }
    const bytes = Buffer.byteLength(chunk);
    if (this.waitingBytes + bytes > this.limitBytes) {
      // What waited will never be sent: let it go now rather than when the client is gone.
      this.overflowed = true;
      this.waiting.length = 0;
      this.waitingBytes = 0;
      return 'overflow';
    }
    this.waiting.push({ chunk, bytes });
    this.waitingBytes += bytes;
    return 'waiting';
  }

  /** On 'drain': writes what waits, until the socket is full again. */
  drain(): void {
    this.blocked = false;
    let sent = 0;
    while (!this.blocked && sent < this.waiting.length) {
      const next = this.waiting[sent++]!;
      this.waitingBytes -= next.bytes;
      this.blocked = !this.write(next.chunk);
    }
    this.waiting.splice(0, sent);
  }

  /** Bytes waiting for the socket to drain. */
  get bytes(): number {
    return this.waitingBytes;
  }
}

/** The open /events streams of one sandbox, for GET /_sandbox/health: how many, what waits for the slow ones, how many were dropped. */
export class EventStreams {
  private readonly open = new Set<StreamBacklog>();
  private droppedCount = 0;

  add(backlog: StreamBacklog): void {
    this.open.add(backlog);
  }

  remove(backlog: StreamBacklog, dropped: boolean): void {
    if (this.open.delete(backlog) && dropped) this.droppedCount += 1;
  }

  stats(): { clients: number; waitingBytes: number; dropped: number } {
    let waitingBytes = 0;
    for (const backlog of this.open) waitingBytes += backlog.bytes;
    return { clients: this.open.size, waitingBytes, dropped: this.droppedCount };
  }
}
