/** A partner's journal and event backlog in PostgreSQL (history-store.ts): its rows of sandbox_journal and sandbox_events. */
import type { Pool } from 'pg';
import type { HistoryStore } from '../journal/history-keeper.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import { journalSequence } from '../journal/journal.js';
import type { SandboxEvent } from '../events/sandbox-events.js';

export function postgresHistory(pool: Pool, partner: string): HistoryStore {
  return {
    async load(journalLimit, eventsKept) {
      const entries = await pool.query<{ entry: string }>('SELECT entry FROM (SELECT seq, entry FROM sandbox_journal WHERE partner = $1 ORDER BY seq DESC LIMIT $2) last ORDER BY seq', [partner, journalLimit]);
      const events = await pool.query<{ event: string }>('SELECT event FROM (SELECT id, event FROM sandbox_events WHERE partner = $1 ORDER BY id DESC LIMIT $2) last ORDER BY id', [partner, eventsKept]);
      return { entries: entries.rows.map((row) => JSON.parse(row.entry) as JournalEntry), events: events.rows.map((row) => JSON.parse(row.event) as SandboxEvent) };
    },
    // One statement a save: the pool it shares with every partner's commits is taken once, whatever was saved.
    async save(entries, events, journalLimit, eventsKept) {
      if (entries.length === 0 && events.length === 0) return;
      const seqs = entries.map((entry) => journalSequence(entry.id));
      const newest = seqs.length === 0 ? 0 : Math.max(...seqs);
      await pool.query(
        `WITH journal AS (INSERT INTO sandbox_journal (partner, seq, entry) SELECT $1, * FROM unnest($2::bigint[], $3::text[]) ON CONFLICT DO NOTHING),
              held AS (INSERT INTO sandbox_events (partner, id, event) SELECT $1, * FROM unnest($4::bigint[], $5::text[]) ON CONFLICT DO NOTHING),
              old_entries AS (DELETE FROM sandbox_journal WHERE partner = $1 AND seq <= $6)
         DELETE FROM sandbox_events WHERE partner = $1 AND id <= $7`,
        [partner, seqs, entries.map((entry) => JSON.stringify(entry)), events.map((event) => event.id), events.map((event) => JSON.stringify(event)), newest - journalLimit, (events.at(-1)?.id ?? 0) - eventsKept],
      );
    },
  };
}
