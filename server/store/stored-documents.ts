/** What a storage holds at start, read once for the check before anything is loaded (or written). */
import type { DecodedFile } from './decode-json-file.js';
import type { DecodedLog } from './decode-log-file.js';
import { parseLogName, parseSegmentName, type LoggedCollectionName, type SegmentedCollectionName } from './segment-names.js';

/** One entry of the segments folder; only the entries named like segments are read. */
export interface StoredEntry {
  /** The entry's own name, as listed (`refunds-000001.json`, `notes.txt`). */
  file: string;
  /** Where it is, for people. */
  path: string;
  /** For an entry named like a segment: the document name (`refunds-000001`) and what the file holds. */
  segment?: { name: string; content: DecodedFile };
  /** For an entry named like a record log: the document name (`refunds-log-000001`) and its records. */
  log?: { name: string; content: DecodedLog };
}

export interface StoredDocuments {
  /** The data file (or "memory"), for people. */
  dataFile: string;
  /** The segments folder, for people. */
  segmentsFolder: string;
  /** The data file's content; undefined when there is no data file. */
  state: DecodedFile | undefined;
  /** `present`, `missing`, or why the folder cannot be listed. */
  folder: 'present' | 'missing' | { problem: string };
  /** Every entry of the segments folder apart from hidden ones (a write's temp file, a desktop's index file), sorted by name. */
  entries: StoredEntry[];
}

/** The segments of one collection in their order, with their records (once the check has passed, every one is readable). */
export function segmentsOf<T>(stored: StoredDocuments, collection: SegmentedCollectionName): Array<{ name: string; records: T[] }> {
  return stored.entries
    .flatMap(({ segment }) => {
      const parsed = segment && parseSegmentName(segment.name);
      return parsed?.collection === collection && segment!.content.ok ? [{ number: parsed.number, name: segment!.name, records: segment!.content.value as T[] }] : [];
    })
    .sort((a, b) => a.number - b.number)
    .map(({ name, records }) => ({ name, records }));
}

/** The log files of one collection in their order, with their records (once the check has passed, every one is readable). */
export function logsOf<T>(stored: StoredDocuments, collection: LoggedCollectionName): Array<{ number: number; records: T[] }> {
  return stored.entries
    .flatMap(({ log }) => {
      const parsed = log && parseLogName(log.name);
      return parsed?.collection === collection && log!.content.ok ? [{ number: parsed.number, records: log!.content.records as T[] }] : [];
    })
    .sort((a, b) => a.number - b.number);
}
