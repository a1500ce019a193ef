import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFailure, readStoredFiles } from './read-stored-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stored-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readStoredFiles', () => {
  it('reads the data file and the entries named like segments, lists the others, and passes over hidden ones', async () => {
    const folder = join(dir, 'db.segments');
    mkdirSync(folder);
    writeFileSync(join(dir, 'db.json'), '{"schemaVersion":1}');
    writeFileSync(join(folder, 'refunds-000001.json'), '[]');
    writeFileSync(join(folder, 'notes.txt'), 'anything');
    writeFileSync(join(folder, '.refunds-000001.json.tmp'), '[');
    writeFileSync(join(folder, '.DS_Store'), '');
    expect(await readStoredFiles(join(dir, 'db.json'), folder)).toEqual({
      dataFile: join(dir, 'db.json'),
      segmentsFolder: folder,
      state: { ok: true, value: { schemaVersion: 1 } },
      folder: 'present',
      entries: [
        { file: 'notes.txt', path: join(folder, 'notes.txt') },
        { file: 'refunds-000001.json', path: join(folder, 'refunds-000001.json'), segment: { name: 'refunds-000001', content: { ok: true, value: [] } } },
      ],
    });
  });

  it('tells a missing data file and folder from broken ones', async () => {
    expect(await readStoredFiles(join(dir, 'db.json'), join(dir, 'db.segments'))).toMatchObject({ state: undefined, folder: 'missing', entries: [] });
  });
});

describe('readFailure', () => {
  it.each([
    ['EACCES', 'read', 'cannot be read: permission denied'],
    ['EPERM', 'listed', 'cannot be listed: permission denied'],
    ['ENOTDIR', 'read', 'cannot be read: a folder on its path is a file'],
    ['EIO', 'read', 'cannot be read (EIO)'],
    [undefined, 'read', 'cannot be read (unknown error)'],
  ] as const)('words %s', (code, verb, words) => {
    expect(readFailure(code, verb)).toBe(words);
  });
});
