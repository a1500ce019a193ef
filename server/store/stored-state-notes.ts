/**
 * Pure: what a start says of a record log it uses though part of it is gone. A last line without its newline is
 * left out (the sandbox answers a change only once its whole line is written, so it may be a change never
 * acknowledged), and an empty log holds nothing; either is also what a file cut short by a copy, a restore or a full
 * disk looks like. The start goes on, and says which file, what it kept, what it left out, and the two ways on.
 */
import type { StoredDocuments } from './stored-documents.js';

export function storedStateNotes(stored: StoredDocuments): string[] {
  const notes: string[] = [];
  for (const entry of stored.entries) {
    const content = entry.log?.content;
    if (content === undefined || !content.ok) continue;
    const kept = `kept ${content.records.length} ${content.records.length === 1 ? 'line' : 'lines'}`;
    if (content.unfinishedBytes > 0) notes.push(`${entry.path}: its last line is cut short (${content.unfinishedBytes} bytes with no newline): ${kept}, left that line out`);
    else if (content.records.length === 0) notes.push(`${entry.path}: the file is empty: nothing kept from it`);
  }
  if (notes.length === 0) return [];
  return [
    ...notes,
    'A line cut short is a change the sandbox never acknowledged if the machine stopped while writing it; it is also what a file cut short by a copy or a full disk looks like.',
    'If refunds are missing that you expected, stop the sandbox now and restore the file named; to start afresh on purpose instead, start with --fresh-state (it moves the state aside, deleting nothing; docs/state-file.md).',
  ];
}
