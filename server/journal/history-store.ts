/**
 * Where a partner's journal and event backlog outlive its sandbox: the database of a hosted sandbox (a move, a
 * takeover, a restart). A laptop's stay in memory, as ever: no store gives one.
 */
import type { JournalEntry } from './journal-entry.js';
import type { SandboxEvent } from '../events/sandbox-events.js';

export interface HistoryStore {
  /** The last `journalLimit` entries and `eventsKept` events, oldest first. */
  load(journalLimit: number, eventsKept: number): Promise<{ entries: JournalEntry[]; events: SandboxEvent[] }>;
  /** Adds entries and events (redacted), and keeps the last `journalLimit` and `eventsKept` only. */
  save(entries: JournalEntry[], events: SandboxEvent[], journalLimit: number, eventsKept: number): Promise<void>;
}
