/** A sandbox's journal and events saved to its history store in batches, redacted, and read back when it is made; a failed save is logged, not retried. */
import type { Logger } from '../logger.js';
import type { SandboxEvents, SandboxEvent } from '../events/sandbox-events.js';
import type { Journal } from './journal.js';
import type { JournalEntry } from './journal-entry.js';

/** How long entries wait to be saved together: one statement a second at most, for a busy partner. */
const SAVE_EVERY_MS = 1000;

export class HistoryKeeper {
  private ids: string[] = [];
  private lastEvent = 0;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly store: HistoryStore,
    private readonly journal: Journal,
    private readonly events: SandboxEvents,
    private readonly logger: Logger,
  ) {}

  /** Reads the history back into `journal` and `events`, then saves what they add from now on. */
  static async start(store: HistoryStore, journal: Journal, events: SandboxEvents, logger: Logger): Promise<HistoryKeeper> {
    const { entries, events: held } = await store.load(journal.limit, events.keep);
    journal.restore(entries);
    events.restore(held);
    const keeper = new HistoryKeeper(store, journal, events, logger);
    keeper.lastEvent = held.at(-1)?.id ?? 0;
    journal.on('added', (summary) => keeper.note(summary.id));
    events.on('event', () => keeper.note());
    return keeper;
  }

  private note(id?: string): void {
    if (id !== undefined) this.ids.push(id);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), SAVE_EVERY_MS);
      // A sandbox put away or closed flushes itself; a timer left must not hold the process.
      this.timer.unref();
    }
  }

  /** Saves what waits now; resolves once it (and any save before it) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = this.ids;
    this.ids = [];
    // Rendered now: an entry dropped by the journal's limit meanwhile is not saved.
    const entries = ids.flatMap((id) => this.journal.get(id) ?? []);
    const events = this.events.since(this.lastEvent);
    if (events.length > 0) this.lastEvent = events.at(-1)!.id;
    this.saving = this.saving.then(async () => {
      if (entries.length === 0 && events.length === 0) return;
      await this.store.save(entries, events, this.journal.limit, this.events.keep).catch((error: unknown) => this.logger.warn({ err: error }, 'could not save journal entries and events to the store; they stay in memory'));
    });
    return this.saving;
  }
}

/** Where a partner's journal and events outlive its sandbox (a hosted sandbox's database); a laptop's stay in memory. */

export interface HistoryStore {
  /** The last `journalLimit` entries and `eventsKept` events, oldest first. */
  load(journalLimit: number, eventsKept: number): Promise<{ entries: JournalEntry[]; events: SandboxEvent[] }>;
  /** Adds entries and events (redacted), and keeps the last `journalLimit` and `eventsKept` only. */
  save(entries: JournalEntry[], events: SandboxEvent[], journalLimit: number, eventsKept: number): Promise<void>;
}
