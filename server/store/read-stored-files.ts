/**
 * Reads the data file and every segment from disk for the check at start; reads only, never writes.
 * Files are read synchronously: this runs before the sandbox listens, so nothing waits on the event loop, and the
 * promise API's round trip per 512 KiB chunk took 130 ms for a folder of 46 MB that a plain read takes in 33.
 */
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeJsonFile } from './decode-json-file.js';
import { decodeLogFile } from './decode-log-file.js';
import { readRefundLine } from './refund-line.js';
import { parseLogName, parseSegmentName } from './segment-names.js';
import type { StoredDocuments, StoredEntry } from './stored-documents.js';

export async function readStoredFiles(dataFile: string, segmentsFolder: string): Promise<StoredDocuments> {
  const state = readStoredFile(dataFile, decodeJsonFile);
  let folder: StoredDocuments['folder'] = 'present';
  const entries: StoredEntry[] = [];
  try {
    const listed = await readdir(segmentsFolder);
    for (const file of listed.sort()) {
      // Hidden entries are lowdb's temp files (`.refunds-000001.json.tmp`, left by a write that never finished, so
      // never acknowledged) and the like; nothing of the sandbox's is hidden.
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

/**
 * The largest stored file read. A segment holds 100 records, a log file 10,000 lines and the data file the menus, a few MiB at most;
 * anything near this is not the sandbox's, and reading it whole could exhaust memory (a link to /dev/zero).
 */
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
