/** Pure: the four verdicts an item can give, each naming the journal entries it rests on. */
import type { JournalEntry } from '../server/journal/journal-entry.js';
import type { Verdict } from './checklist-types.js';

const idsOf = (entries: readonly JournalEntry[]) => entries.map((entry) => entry.id);

export const pass = (message: string, entries: readonly JournalEntry[] = []): Verdict => ({ status: 'pass', message, evidence: idsOf(entries) });
export const fail = (message: string, entries: readonly JournalEntry[] = []): Verdict => ({ status: 'fail', message, evidence: idsOf(entries) });
export const warn = (message: string, entries: readonly JournalEntry[] = []): Verdict => ({ status: 'warn', message, evidence: idsOf(entries) });
/** The traffic the item needs never arrived: never a pass. */
export const blocked = (message: string, entries: readonly JournalEntry[] = []): Verdict => ({ status: 'blocked', message, evidence: idsOf(entries) });
