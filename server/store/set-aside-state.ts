/** `serve --fresh-state`: moves the data file and its segments folder aside, renamed with the time; nothing is deleted. */
import { lstatSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { segmentsFolderOf } from './segment-storage.js';
import { StoreError } from './sandbox-store.js';

export interface MovedAside {
  from: string;
  to: string;
}

/** Pure: `db.json` → `db.moved-<time>.json` and `db.segments` alike, so the pair still opens with --data; a name taken gets `-2`, `-3` …. */
export function asideNames(dataFile: string, now: Date, taken: (path: string) => boolean): { dataFile: string; segmentsFolder: string } {
  // Colons are not allowed in Windows file names.
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const name = basename(dataFile);
  const extension = /\.json$/i.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; ; n++) {
    const candidate = join(dirname(dataFile), `${stem}.moved-${stamp}${n > 1 ? `-${n}` : ''}${extension}`);
    const folder = segmentsFolderOf(candidate);
    if (!taken(candidate) && !taken(folder)) return { dataFile: candidate, segmentsFolder: folder };
  }
}

/** Moves whatever of the pair exists (file, folder, or whatever sits at those paths) and says what went where. */
export function setAsideState(dataFile: string, now: Date): MovedAside[] {
  const exists = (path: string) => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  };
  const to = asideNames(dataFile, now, exists);
  // The data file first: segments left without it are refused by the next start, never seeded over.
  const moves = [
    { from: dataFile, to: to.dataFile },
    { from: segmentsFolderOf(dataFile), to: to.segmentsFolder },
  ].filter((move) => exists(move.from));
  const moved: MovedAside[] = [];
  for (const move of moves) {
    try {
      renameSync(move.from, move.to);
    } catch (error) {
      const done = moved.map((earlier) => `${earlier.from} was moved to ${earlier.to}; `).join('');
      throw new StoreError(
        `--fresh-state could not move ${move.from} aside to ${move.to} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ${done}nothing was deleted, and the sandbox did not start`,
      );
    }
    moved.push(move);
  }
  return moved;
}

/** What serve prints before its banner after --fresh-state. */
export function setAsideReport(dataFile: string, moved: MovedAside[]): string {
  if (moved.length === 0) return `--fresh-state: nothing stored at ${dataFile} to move aside; starting from the fixtures\n`;
  const reopen = moved.find((move) => move.from === dataFile);
  return [
    `--fresh-state: moved the earlier state aside (nothing deleted)${reopen ? `; to open it again: --data ${reopen.to}` : ''}`,
    ...moved.map((move) => `  ${move.from} → ${move.to}`),
    '',
  ].join('\n');
}
