/**
 * Pure: a journal entry as the checklist keeps it, judges it and stores it in a report. The journal has already
 * redacted it (tokens as header + claims + hash, secret headers hashed); this takes out any JWT signature left in a
 * body. The runner judges exactly what the report keeps, so judging the report's evidence again gives the same verdicts.
 */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import { scrubValue } from '../server/journal/redaction.js';

export function asEvidence(entry: JournalEntry): JournalEntry {
  return scrubValue(JSON.parse(JSON.stringify(entry)) as JournalEntry, []);
}
