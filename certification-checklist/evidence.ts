/** Pure: a journal entry as the checklist judges it and a report keeps it (any JWT signature left in a body taken out), so judging a report's evidence again gives the same verdicts. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import { scrubValue } from '../server/journal/redaction.js';

export function asEvidence(entry: JournalEntry): JournalEntry {
  return scrubValue(JSON.parse(JSON.stringify(entry)) as JournalEntry, []);
}
