/** Reads the data file and every segment for the check at start, synchronously (nothing waits on the event loop yet, and it is faster). */
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeJsonFile, type DecodedFile } from './decode-json-file.js';
import { decodeLogFile, readRefundLine, type DecodedLog } from './decode-log-file.js';
import { parseLogName, parseSegmentName, type LoggedCollectionName, type SegmentedCollectionName } from './segment-names.js';

export async function readStoredFiles(dataFile: string, segmentsFolder: string): Promise<StoredDocuments> {
  const state = readStoredFile(dataFile, decodeJsonFile);
  let folder: StoredDocuments['folder'] = 'present';
  const entries: StoredEntry[] = [];
  try {
    const listed = await readdir(segmentsFolder);
    for (const file of listed.sort()) {
      // Hidden entries are lowdb's temp files of writes never finished; nothing of the sandbox's is hidden.
      if (file.startsWith('.')) continue;
      const path = join(segmentsFolder, file);
      const logged = file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : undefined;
      if (logged !== undefined && parseLogName(logged)) {
        // Refunds are the one logged collection; their lines as the sandbox writes them are read without JSON.parse.
        const content = (readStoredFile(path, (bytes) => decodeLogFile(bytes, readRefundLine))) ?? { ok: false, problem: 'vanished while it was being read' };
        entries.push({ file, path, log: { name: logged, content } });
        continue;
      }
      const name = file.endsWith('.json') ? file.slice(0, -'.json'.length) : undefined;
      if (name === undefined || !parseSegmentName(name)) {
        entries.push({ file, path });
        continue;
      }
      const content = (readStoredFile(path, decodeJsonFile)) ?? { ok: false, problem: 'vanished while it was being read' };
      entries.push({ file, path, segment: { name, content } });
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    folder = code === 'ENOENT' ? 'missing' : { problem: code === 'ENOTDIR' ? 'is a file, not a folder' : readFailure(code, 'listed') };
  }
  return { dataFile, segmentsFolder, state, folder, entries };
}

/** Anything near this is not the sandbox's, and reading it whole could exhaust memory (a link to /dev/zero). */
export const MAX_STORED_FILE_BYTES = 64 * 1024 * 1024;

/** A file's content, or undefined when there is no such file. */
function readStoredFile<D>(path: string, decode: (bytes: Uint8Array) => D): D | { ok: false; problem: string } | undefined {
  try {
    // Looked at before it is opened: opening a FIFO waits for a writer for ever, and a device never ends.
    const info = statSync(path);
    if (info.isDirectory()) return { ok: false, problem: 'is a folder, not a file' };
    if (!info.isFile()) return { ok: false, problem: 'is not a plain file (a FIFO, device or socket); the sandbox stores plain JSON files only' };
    if (info.size > MAX_STORED_FILE_BYTES) {
      return { ok: false, problem: `is ${info.size} bytes, more than the ${MAX_STORED_FILE_BYTES} a stored file of the sandbox can be: it is not one of its files` };
    }
    return decode(readFileSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { ok: false, problem: code === 'EISDIR' ? 'is a folder, not a file' : readFailure(code, 'read') };
  }
}

/** Why a file cannot be read or a folder listed, from the error code. */
export function readFailure(code: string | undefined, verb: 'read' | 'listed'): string {
  if (code === 'EACCES' || code === 'EPERM') return `cannot be ${verb}: permission denied`;
  if (code === 'ENOTDIR') return 'cannot be read: a folder on its path is a file';
  return `cannot be ${verb} (${code ?? 'unknown error'})`;
}

/** What a storage holds at start, read once for the check before anything is loaded (or written). */

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
