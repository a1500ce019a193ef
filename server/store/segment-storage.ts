/** Where lowdb documents live: files beside the data file, or memory for --memory and the tests. */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';

export interface DocumentStorage {
  /** A lowdb adapter for the document `name` (e.g. `refunds-000001`). */
  open<T>(name: string): Adapter<T>;
  /** Names of the stored documents that start with `prefix`, sorted. */
  list(prefix: string): string[];
  remove(name: string): Promise<void>;
  /** Where the documents are, for people: a folder, or "memory". */
  readonly where: string;
}

/**
 * Documents as JSON files written atomically (temp file + rename) by lowdb's JSONFile: the `state`
 * document is the data file itself (`.sandbox/db.json`), the others sit beside it in `db.segments/`.
 */
export function fileStorage(dataFile: string): DocumentStorage {
  const dir = join(dirname(dataFile), `${basename(dataFile).replace(/\.json$/i, '')}.segments`);
  mkdirSync(dir, { recursive: true });
  const pathOf = (name: string) => (name === 'state' ? dataFile : join(dir, `${name}.json`));
  const adapters = new Map<string, Adapter<unknown>>();
  return {
    where: dataFile,
    open<T>(name: string): Adapter<T> {
      // One adapter a file: its writer serializes the writes to that file.
      if (!adapters.has(name)) adapters.set(name, new JSONFile<unknown>(pathOf(name)));
      return adapters.get(name) as Adapter<T>;
    },
    list(prefix: string): string[] {
      return readdirSync(dir)
        .filter((file) => file.startsWith(prefix) && file.endsWith('.json'))
        .map((file) => file.slice(0, -'.json'.length))
        .sort();
    },
    async remove(name: string): Promise<void> {
      adapters.delete(name);
      rmSync(pathOf(name), { force: true });
    },
  };
}

/** Documents in memory: the same code path as files, nothing on disk. */
export function memoryStorage(): DocumentStorage {
  const adapters = new Map<string, Memory<unknown>>();
  return {
    where: 'memory',
    open<T>(name: string): Adapter<T> {
      if (!adapters.has(name)) adapters.set(name, new Memory<unknown>());
      return adapters.get(name) as Adapter<T>;
    },
    list(prefix: string): string[] {
      return [...adapters.keys()].filter((name) => name.startsWith(prefix)).sort();
    },
    async remove(name: string): Promise<void> {
      adapters.delete(name);
    },
  };
}
