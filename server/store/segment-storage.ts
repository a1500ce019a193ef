/** Where lowdb documents live: files beside the data file, or memory for --memory and the tests. */
import { parseLogName, parseSegmentName } from './segment-names.js';
import { mkdirSync, rmSync } from 'node:fs';
import type { HistoryStore } from '../journal/history-keeper.js';
import { open as openFile, readFile, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Memory, type Adapter } from 'lowdb';
import { DataFile, TextFile } from 'lowdb/node';
import { decodeLogFile } from './decode-log-file.js';
import { readStoredFiles, type StoredDocuments } from './read-stored-files.js';

export interface DocumentStorage {
  /** A lowdb adapter for the document `name` (e.g. `refunds-000001`). */
  open<T>(name: string): Adapter<T>;
  /** Appends `text` to the record log `name` (e.g. `refunds-log-000001`), made by the first append; resolves once written. */
  append(name: string, text: string): Promise<void>;
  /** Replaces the record log `name` with `text` at once (a temp file renamed over it): a crash leaves the old file or the new one. */
  rewrite(name: string, text: string): Promise<void>;
  /** The text of the record log `name` as stored, '' when there is none: what a rewrite keeps lines of. */
  readLog(name: string): Promise<string>;
  /** Everything stored, read once at start so it can be checked before any of it is used. */
  readAll(): Promise<StoredDocuments>;
  remove(name: string): Promise<void>;
  /** Where the documents are, for people: a folder, or "memory". */
  readonly where: string;
  /** False when nothing outlives the process (memory): a record log then renders no lines, since none is read back. */
  readonly persistent: boolean;
  /** What holds the state, for /_sandbox/health. */
  readonly kind: 'memory' | 'file' | 'postgres';
  /** Resolves once the store has answered a trivial request (health and readiness time it); rejects when it cannot. */
  ping(): Promise<void>;
  /** Where the journal and the event backlog outlive the sandbox (a hosted sandbox's database); none on a laptop. */
  readonly history?: HistoryStore;
}

/** The segments folder of a data file: `.sandbox/db.json` → `.sandbox/db.segments`. */
export function segmentsFolderOf(dataFile: string): string {
  return join(dirname(dataFile), `${basename(dataFile).replace(/\.json$/i, '')}.segments`);
}

/** Documents as JSON files written atomically (temp file + rename): the `state` document is the data file, the others in `db.segments/`. */
export function fileStorage(dataFile: string): DocumentStorage {
  const dir = segmentsFolderOf(dataFile);
  const pathOf = (name: string) => (name === 'state' ? dataFile : join(dir, parseLogName(name) ? `${name}.jsonl` : `${name}.json`));
  const adapters = new Map<string, Adapter<unknown>>();
  // One handle a log, opened by its first append and kept: opening a file per commit cost more than the write.
  const logs = new Map<string, Promise<FileHandle>>();
  // The folders are made by the first write, not before: a start refused by the check leaves the disk as it found it.
  let folderMade = false;
  const makeFolder = () => {
    if (!folderMade) mkdirSync(dir, { recursive: true });
    folderMade = true;
  };
  return {
    where: dataFile,
    persistent: true,
    kind: 'file',
    // The folder the data file is in: where every write goes (the file itself may not exist yet).
    ping: async () => void (await stat(dirname(dataFile))),
    open<T>(name: string): Adapter<T> {
      // One adapter a file: its writer serializes the writes to that file.
      if (!adapters.has(name)) {
        // Compact JSON: the data file is written at each menu update, and indenting doubles its bytes.
        const file = new DataFile<unknown>(pathOf(name), { parse: JSON.parse, stringify: (data) => JSON.stringify(data) });
        adapters.set(name, {
          read: () => file.read(),
          write: (data: unknown) => {
            makeFolder();
            return file.write(data);
          },
        });
      }
      return adapters.get(name) as Adapter<T>;
    },
    async append(name: string, text: string): Promise<void> {
      makeFolder();
      let handle = logs.get(name);
      if (!handle) {
        handle = openFile(pathOf(name), 'a');
        logs.set(name, handle);
        // A failed open is not kept: the next append tries again.
        handle.catch(() => logs.delete(name));
      }
      await (await handle).appendFile(text, 'utf8');
    },
    async rewrite(name: string, text: string): Promise<void> {
      // Not appended to any more (it is not the current file), so its handle is closed; the rename leaves it on the old file.
      const handle = logs.get(name);
      logs.delete(name);
      await handle?.then((opened) => opened.close()).catch(() => undefined);
      await new TextFile(pathOf(name)).write(text);
    },
    readLog: (name: string) => readFile(pathOf(name), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error))),
    readAll: () => readStoredFiles(dataFile, dir),
    async remove(name: string): Promise<void> {
      adapters.delete(name);
      const handle = logs.get(name);
      logs.delete(name);
      await handle?.then((opened) => opened.close()).catch(() => undefined);
      rmSync(pathOf(name), { force: true });
    },
  };
}

/** Documents in memory: the same code path as files, nothing on disk. */
export function memoryStorage(): DocumentStorage {
  const adapters = new Map<string, Memory<unknown>>();
  const logs = new Map<string, string>();
  return {
    where: 'memory',
    persistent: false,
    kind: 'memory',
    ping: async () => undefined,
    async append(name: string, text: string): Promise<void> {
      logs.set(name, (logs.get(name) ?? '') + text);
    },
    async rewrite(name: string, text: string): Promise<void> {
      logs.set(name, text);
    },
    readLog: async (name: string) => logs.get(name) ?? '',
    open<T>(name: string): Adapter<T> {
      if (!adapters.has(name)) adapters.set(name, new Memory<unknown>());
      return adapters.get(name) as Adapter<T>;
    },
    async readAll(): Promise<StoredDocuments> {
      const read = async (name: string) => {
        const value = await adapters.get(name)?.read();
        return value === undefined || value === null ? undefined : { ok: true as const, value };
      };
      const names = [...adapters.keys()].filter((name) => parseSegmentName(name)).sort();
      const entries = [];
      for (const name of names) {
        const content = await read(name);
        if (content) entries.push({ file: `${name}.json`, path: `memory:${name}`, segment: { name, content } });
      }
      for (const name of [...logs.keys()].sort()) {
        entries.push({ file: `${name}.jsonl`, path: `memory:${name}`, log: { name, content: decodeLogFile(Buffer.from(logs.get(name)!, 'utf8')) } });
      }
      return { dataFile: 'memory', segmentsFolder: 'memory', state: await read('state'), folder: 'present', entries };
    },
    async remove(name: string): Promise<void> {
      adapters.delete(name);
      logs.delete(name);
    },
  };
}
