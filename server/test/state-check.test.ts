/** The check of the stored state at start, as a user meets it: the real serve process, its exit code, its stderr, the files after. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { cli, stopServers } from './processes.js';
import { folderPicture, writeGoodState } from './stored-state.js';

jest.setTimeout(60_000);
const folders: string[] = [];
afterEach(() => stopServers());
// Not after each: concurrent tests share the hooks, and one must not remove another's folder while it runs.
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A temp folder holding a sound state with three refunds. */
async function goodState(): Promise<{ dir: string; data: string; segments: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'state-check-'));
  folders.push(dir);
  await writeGoodState(join(dir, 'db.json'));
  return { dir, data: join(dir, 'db.json'), segments: join(dir, 'db.segments') };
}

function refusal(data: string, segments: string, problem: string): string {
  return [
    'pos-sandbox: the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
    `  - ${problem}`,
    'To keep its records, repair or restore the files named above.',
    `To start afresh from the fixtures, start with --fresh-state: it moves ${data} and ${segments} aside (renamed with the time, nothing deleted). Or start with --memory.`,
    '',
  ].join('\n');
}

describe('pos-sandbox serve on a damaged state', () => {
  it.concurrent.each<[string, (data: string, segments: string) => void, (data: string, segments: string) => string]>([
    ['db.json holding null', (data) => writeFileSync(data, 'null'), (data) => `${data}: the state document must be an object, got null`],
    [
      'db.json deleted while segments exist',
      (data) => rmSync(data),
      (data, segments) => `${data}: missing, but ${segments} holds 2 segment files of an earlier run (its orders and refunds); a start without the data file would drop them`,
    ],
    [
      'binary garbage in a segment',
      (_data, segments) => writeFileSync(join(segments, 'refunds-000001.json'), Buffer.from([0x5b, 0x00, 0xff, 0xfe, 0x1b, 0x5d])),
      (_data, segments) => `${join(segments, 'refunds-000001.json')}: holds 2 bytes that are not UTF-8 text (the first at byte offset 2), so it is not JSON`,
    ],
  ])('stops with exit code 2 on %s, says which file and how to start afresh, and leaves every byte as it was', async (_name, damage, problem) => {
    const { dir, data, segments } = await goodState();
    damage(data, segments);
    const before = folderPicture(dir);
    const result = await cli(['serve', '--data', data, '--port', '0']);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({ code: 2, stderr: refusal(data, segments, problem(data, segments)), stdout: '' });
    expect(folderPicture(dir)).toEqual(before);
  });
});
