/** The check at start, on real files in a temp folder: a damaged state is refused whole and left as it was; a sound one opens. */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SandboxStore, StoreError } from './sandbox-store.js';
import { fileStorage, memoryStorage } from './segment-storage.js';
import { folderPicture, refundRecord, STORE_CLOCK, storeFixtures, writeGoodState } from '../test/stored-state.js';

let template: string;
let dir: string;
let data: string;
let segments: string;
const segment = (name: string) => join(segments, name);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const writeJson = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));

beforeAll(async () => {
  // One sound state of an earlier version (101 refunds in two refund segments), copied for each test: a start must
  // check and keep what versions before the refund log stored. The log's own checks are in record-log-files.test.ts.
  template = mkdtempSync(join(tmpdir(), 'state-template-'));
  await writeGoodState(join(template, 'db.json'), 101, { earlierVersion: true });
});
afterAll(() => rmSync(template, { recursive: true, force: true }));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'state-'));
  cpSync(template, dir, { recursive: true });
  data = join(dir, 'db.json');
  segments = join(dir, 'db.segments');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => SandboxStore.open(fileStorage(data), storeFixtures, STORE_CLOCK);

/** The whole message of a refused start. */
function refusal(...problems: string[]): string {
  return [
    'the stored state cannot be used, so the sandbox did not start (nothing on disk was changed):',
    ...problems.map((problem) => `  - ${problem}`),
    'To keep its records, repair or restore the files named above.',
    `To start afresh from the fixtures, start with --fresh-state: it moves ${data} and ${segments} aside (renamed with the time, nothing deleted). Or start with --memory.`,
  ].join('\n');
}

const BINARY = Uint8Array.from({ length: 256 }, (_, i) => i);
/** A refund whose detail was saved by an editor in Latin-1: é is the one byte 0xe9. */
const LATIN1 = Buffer.from(JSON.stringify([refundRecord(101, { detail: 'café' })]), 'latin1');

describe('SandboxStore.open on a damaged state', () => {
  it.each<[string, () => void, () => string[]]>([
    ['db.json holds null', () => writeFileSync(data, 'null'), () => [`${data}: the state document must be an object, got null`]],
    ['db.json holds {}', () => writeFileSync(data, '{}'), () => [`${data}: the state document lacks schemaVersion, seededAt and menus`]],
    ['db.json holds []', () => writeFileSync(data, '[]'), () => [`${data}: the state document must be an object, got array []`]],
    [
      'db.json holds {"menus":null}',
      () => writeFileSync(data, '{"menus":null}'),
      () => [`${data}: the state document lacks schemaVersion and seededAt`, `${data}: menus must be an object, got null`],
    ],
    [
      'a menu of the wrong shape',
      () => {
        const state = readJson(data) as { menus: Record<string, { Items: Array<{ Prices: unknown }> }> };
        state.menus['loc-std-001']!.Items[1]!.Prices = '12.50';
        writeJson(data, state);
      },
      () => [`${data}: menus["loc-std-001"].Items[1].Prices must be an array, got string "12.50"`],
    ],
    [
      'a menu kept under another location',
      () => {
        const state = readJson(data) as { menus: Record<string, unknown> };
        state.menus['loc-kiosk-001'] = state.menus['loc-std-001'];
        writeJson(data, state);
      },
      () => [`${data}: menus["loc-kiosk-001"].LocationId is "loc-std-001": a menu is kept under its own LocationId`],
    ],
    [
      'another schemaVersion',
      () => writeJson(data, { ...readJson(data), schemaVersion: 2 }),
      () => [`${data}: schemaVersion is 2, but this sandbox reads version 1 only: was the file written by another version of pos-sandbox?`],
    ],
    [
      'db.json cut short',
      () => writeFileSync(data, readFileSync(data).subarray(0, 100)),
      () => [`${data}: the JSON is unfinished at the end of the file (100 bytes): the file looks cut short`],
    ],
    ['db.json empty', () => writeFileSync(data, ''), () => [`${data}: the file is empty (0 bytes)`]],
    ['db.json binary garbage', () => writeFileSync(data, BINARY), () => [`${data}: holds 128 bytes that are not UTF-8 text (the first at byte offset 128), so it is not JSON`]],
    [
      'db.json deleted while segments exist',
      () => rmSync(data),
      () => [`${data}: missing, but ${segments} holds 3 files of an earlier run (its orders and refunds); a start without the data file would drop them`],
    ],
    [
      'db.json a folder',
      () => {
        rmSync(data);
        mkdirSync(data);
      },
      () => [`${data}: is a folder, not a file`],
    ],
    [
      'a segment with broken JSON',
      () => writeFileSync(segment('refunds-000002.json'), '[{"id":"rf-0101",,}]'),
      () => [`${segment('refunds-000002.json')}: not valid JSON at byte offset 17 of 20`],
    ],
    ['a segment that is not an array', () => writeJson(segment('refunds-000002.json'), { id: 'rf-0101' }), () => [`${segment('refunds-000002.json')}: the segment must be an array, got object {"id":"rf-0101"}`]],
    [
      'a segment of records of the wrong shape',
      () => writeJson(segment('refunds-000002.json'), [refundRecord(101, { status: 'DONE' as never }), { ...refundRecord(102), dueAt: 'soon' }]),
      () => [
        `${segment('refunds-000002.json')}: [0].status must be one of "PENDING", "PROCESSED", "FAILED", got string "DONE"`,
        `${segment('refunds-000002.json')}: [1].dueAt must match ^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$, got string "soon"`,
      ],
    ],
    [
      'a segment of another collection',
      () => cpSync(segment('orders-000001.json'), segment('refunds-000002.json')),
      () => [`${segment('refunds-000002.json')}: [0] is an order record (it has OrderId) (and 5 more), not a refund: a refunds segment holds refunds only`],
    ],
    [
      'a record id used twice',
      () => writeJson(segment('refunds-000002.json'), [refundRecord(7, { status: 'PENDING' })]),
      () => [`${segment('refunds-000002.json')}: [0].id "rf-0007" is used by refunds-000001.json[6] too; every record needs its own id`],
    ],
    [
      'a gap in the segment numbers',
      () => renameSync(segment('refunds-000002.json'), segment('refunds-000003.json')),
      () => [
        `${segment('refunds-000002.json')}: missing, but refunds-000003.json exists; the segments of a collection are numbered from 000001 without a gap, or a new one would overwrite an old one`,
      ],
    ],
    [
      'a file that is not a segment in the folder',
      () => writeFileSync(segment('refunds-2.json'), '[]'),
      () => [`${segment('refunds-2.json')}: not a file of this sandbox (it keeps orders-NNNNNN.json, refunds-log-NNNNNN.jsonl and, from earlier versions, refunds-NNNNNN.json); move it out of ${segments}`],
    ],
    [
      'a segment that is not UTF-8 (Latin-1)',
      () => writeFileSync(segment('refunds-000002.json'), LATIN1),
      () => [`${segment('refunds-000002.json')}: holds 1 byte that is not UTF-8 text (the first at byte offset ${LATIN1.indexOf(0xe9)}), so it is not JSON`],
    ],
    ['faults not an array', () => writeJson(data, { ...readJson(data), faults: { outage: {} } }), () => [`${data}: faults must be an array, got object {"outage":{}}`]],
    [
      'a stored fault rule that is not a rule',
      () => {
        const state = readJson(data) as { faults: Array<Record<string, unknown>> };
        state.faults.push({ ...state.faults[0], id: 'outage', action: { kind: 'explode' }, fired: -1 });
        writeJson(data, state);
      },
      () => [
        `${data}: faults[1].fired must be 0 or more, got number -1`,
        `${data}: faults[1].action.kind must be one of "status", "delay", "drop", "hang", "malformed", "rate-limit", "bad-signature", "expired-token", "wrong-audience", "duplicate", got string "explode"`,
        `${data}: faults[1].id 'outage' is given twice; every rule needs its own id`,
      ],
    ],
    [
      'a segment that is a folder',
      () => {
        rmSync(segment('refunds-000002.json'));
        mkdirSync(segment('refunds-000002.json'));
      },
      () => [`${segment('refunds-000002.json')}: is a folder, not a file`],
    ],
    [
      'the segments folder is a file',
      () => {
        rmSync(segments, { recursive: true });
        writeFileSync(segments, '');
      },
      () => [`${segments}: is a file, not a folder`],
    ],
    [
      'the segments folder missing beside the data file',
      () => rmSync(segments, { recursive: true }),
      () => [`${segments}: missing, but ${data} exists; the orders and refunds of that state are kept in this folder`],
    ],
  ])('refuses %s, names the file, and changes nothing on disk', async (_name, damage, problems) => {
    damage();
    const before = folderPicture(dir);
    await expect(open()).rejects.toThrow(new StoreError(refusal(...problems())));
    expect(folderPicture(dir)).toEqual(before);
  });

  it('refuses a segment that is a FIFO or a device without opening it (opening a FIFO would wait for ever)', async () => {
    rmSync(segment('refunds-000002.json'));
    execFileSync('mkfifo', [segment('refunds-000002.json')]);
    await expect(open()).rejects.toThrow(`${segment('refunds-000002.json')}: is not a plain file (a FIFO, device or socket); the sandbox stores plain JSON files only`);
    rmSync(segment('refunds-000002.json'));
    symlinkSync('/dev/zero', segment('refunds-000002.json'));
    await expect(open()).rejects.toThrow(`${segment('refunds-000002.json')}: is not a plain file (a FIFO, device or socket); the sandbox stores plain JSON files only`);
  });

  it('never quotes the bytes of a broken file', async () => {
    const text = '{"menus": "SECRET \u001b[2J';
    writeFileSync(data, Buffer.concat([Buffer.from(text), Buffer.from([0xff])]));
    const error = (await open().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain(`${data}: holds 1 byte that is not UTF-8 text (the first at byte offset ${text.length}), so it is not JSON`);
    for (const part of ['SECRET', '\u001b']) expect(error.message).not.toContain(part);
  });

  it('lists 20 problems and counts the rest', async () => {
    writeJson(segment('refunds-000001.json'), Array.from({ length: 30 }, (_, n) => ({ ...refundRecord(n), status: 'LOST' })));
    const message = ((await open().catch((caught: unknown) => caught)) as Error).message;
    expect(message.split('\n').filter((line) => line.startsWith('  - '))).toHaveLength(21);
    expect(message).toContain('\n  - … and 10 more\n');
  });

  // Root reads every file whatever its mode, so this runs only for other users (read-stored-files.test.ts words it for all).
  (process.getuid?.() === 0 ? it.skip : it)('refuses a file it is not allowed to read', async () => {
    chmodSync(segment('refunds-000001.json'), 0o000);
    await expect(open()).rejects.toThrow(new StoreError(refusal(`${segment('refunds-000001.json')}: cannot be read: permission denied`)));
  });
});

describe('SandboxStore.open on a sound state', () => {
  it('opens every record and the state as stored, writing nothing', async () => {
    const before = folderPicture(dir);
    const store = await open();
    expect(store.refunds.size).toBe(101);
    expect(store.refunds.get('rf-0101')).toEqual(refundRecord(101));
    expect(store.orders.size).toBe(storeFixtures.orders.length);
    expect(store.menu('loc-std-001')!.Items[0]!.Name).toBe('Renamed');
    expect(store.faultRules().map((rule) => rule.id)).toEqual(['outage']);
    expect(folderPicture(dir)).toEqual(before);
  });

  it("gives a fixture location with no stored menu the fixtures' menu, keeping every stored menu and record", async () => {
    const state = readJson(data) as { menus: Record<string, unknown> };
    const [dropped, ...kept] = Object.keys(state.menus);
    delete state.menus[dropped!];
    writeJson(data, state);
    const store = await open();
    expect(store.menu(dropped!)).toEqual(storeFixtures.menus[dropped!]);
    for (const id of kept) expect(store.menu(id)).toEqual(state.menus[id]);
    expect(store.refunds.all()).toHaveLength(101);
  });

  it('opens a data file written before fault rules were stored', async () => {
    const older = readJson(data);
    delete older.faults;
    writeJson(data, older);
    const store = await open();
    expect(store.faultRules()).toEqual([]);
    expect(store.refunds.size).toBe(101);
  });

  it('passes over the temp file of a write that never finished, and keeps the segment it was replacing', async () => {
    writeFileSync(segment('.refunds-000002.json.tmp'), '[{"id":');
    const store = await open();
    expect(store.refunds.get('rf-0101')).toEqual(refundRecord(101));
  });

  it("moves an earlier version's refunds into the log at the first commit, then removes its segments", async () => {
    const store = await open();
    store.refunds.put(refundRecord(102));
    await store.commit();
    expect(existsSync(segment('refunds-000001.json')) || existsSync(segment('refunds-000002.json'))).toBe(false);
    const lines = readFileSync(segment('refunds-log-000001.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(Array.from({ length: 102 }, (_, n) => refundRecord(n + 1)));
    const reopened = await open();
    expect(reopened.refunds.all()).toEqual(Array.from({ length: 102 }, (_, n) => refundRecord(n + 1)));
  });

  it.each([
    ['a folder that does not exist yet', () => rmSync(dir, { recursive: true })],
    ['an empty folder', () => (rmSync(data), rmSync(segments, { recursive: true }))],
    ['an empty segments folder and no data file', () => (rmSync(data), rmSync(segments, { recursive: true }), mkdirSync(segments))],
  ])('seeds the fixtures in %s', async (_name, prepare) => {
    prepare();
    const store = await open();
    expect(store.refunds.size).toBe(0);
    expect(store.orders.size).toBe(storeFixtures.orders.length);
    expect(readJson(data)).toMatchObject({ schemaVersion: 1, seededAt: '2026-11-21T10:00:00.000Z' });
  });

  it('opens an empty memory storage as before', async () => {
    const store = await SandboxStore.open(memoryStorage(), storeFixtures, STORE_CLOCK);
    expect(store.orders.size).toBe(storeFixtures.orders.length);
  });

  it('keeps refunds in memory storage without rendering their log lines, which nothing would read', async () => {
    const storage = memoryStorage();
    const store = await SandboxStore.open(storage, storeFixtures, STORE_CLOCK);
    for (let n = 1; n <= 3; n++) store.refunds.put(refundRecord(n));
    await store.commit();
    expect(store.refunds.all().map((refund) => refund.id)).toEqual([1, 2, 3].map((n) => refundRecord(n).id));
    const logged = (await storage.readAll()).entries.flatMap((entry) => (entry.log?.content.ok ? entry.log.content.records : []));
    expect(logged).toEqual([]);
  });
});
