import fc from 'fast-check';
/** The refunds' record log on real files in a temp folder: what a commit appends, what a start reads back, the retention, and the check. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RefundRecord } from '../refunds/refund-rules.js';
import { RecordLog } from './record-log.js';
import { acceptedAtMs, SandboxStore } from './sandbox-store.js';
import { fileStorage, type DocumentStorage } from './segment-storage.js';
import { folderPicture, refundRecord, STORE_CLOCK, storeFixtures } from '../test/stored-state.js';

let dir: string;
let data: string;
const logFile = (n: number) => join(dir, 'db.segments', `refunds-log-${String(n).padStart(6, '0')}.jsonl`);
const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as RefundRecord);
const logFiles = () => readdirSync(join(dir, 'db.segments')).filter((name) => name.startsWith('refunds-log-')).sort();
const open = (refundLimit?: number) => SandboxStore.open(fileStorage(data), storeFixtures, STORE_CLOCK, { refundLimit });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'record-log-'));
  data = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the refunds log on disk', () => {
  it('appends one line a changed refund at each commit, and a start reads the latest of each, in acceptance order', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1, { status: 'PENDING' }));
    store.refunds.put(refundRecord(2, { status: 'PENDING' }));
    await store.commit();
    store.refunds.put(refundRecord(1));
    await store.commit();
    expect(linesOf(logFile(1))).toEqual([refundRecord(1, { status: 'PENDING' }), refundRecord(2, { status: 'PENDING' }), refundRecord(1)]);
    const reopened = await open();
    expect(reopened.refunds.all()).toEqual([refundRecord(1), refundRecord(2, { status: 'PENDING' })]);
  });

  it('keeps one line a record whatever its text holds: newlines, line separators, lone surrogates, 256 characters', async () => {
    const odd = ['a\nb\r\nc', 'x\u2028y\u2029z', 'lone \ud800 surrogate', 'é'.repeat(256), '{"id":"rf-0009"}\n'];
    const store = await open();
    odd.forEach((externalId, n) => store.refunds.put(refundRecord(n + 1, { externalId })));
    await store.commit();
    expect(readFileSync(logFile(1), 'utf8').split('\n')).toHaveLength(odd.length + 1);
    // JSON.stringify writes a lone surrogate as an escape, so it reads back as the same string.
    expect((await open()).refunds.all().map((refund) => refund.externalId)).toEqual(odd);
  });

  it('writes a refund changed twice between commits once, as it last was', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1, { status: 'PENDING' }));
    store.refunds.put(refundRecord(1));
    await store.commit();
    expect(linesOf(logFile(1))).toEqual([refundRecord(1)]);
  });

  it('appends to a new file after each start, and removes a file once none of its lines is needed', async () => {
    const first = await open();
    first.refunds.put(refundRecord(1, { status: 'PENDING' }));
    await first.commit();
    const second = await open();
    second.refunds.put(refundRecord(1));
    await second.commit();
    // The PENDING line of file 1 is superseded by the line in file 2: file 1 goes.
    expect(logFiles()).toEqual(['refunds-log-000002.jsonl']);
    expect((await open()).refunds.all()).toEqual([refundRecord(1)]);
  });

  it('leaves out a last line whose write never finished, and never appends after it', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1));
    await store.commit();
    appendFileSync(logFile(1), JSON.stringify(refundRecord(2)).slice(0, 40));
    const reopened = await open();
    expect(reopened.refunds.all()).toEqual([refundRecord(1)]);
    reopened.refunds.put(refundRecord(3));
    await reopened.commit();
    expect(linesOf(logFile(2))).toEqual([refundRecord(3)]);
    expect((await open()).refunds.all()).toEqual([refundRecord(1), refundRecord(3)]);
  });

  it('a reset during a commit waits for its write: neither fails, and nothing is left', async () => {
    const store = await open();
    for (let n = 1; n <= 200; n++) store.refunds.put(refundRecord(n));
    const first = store.commit();
    // The commit's flush starts on the next turn; the reset comes while its append is under way.
    await new Promise((resolve) => setImmediate(resolve));
    const commits = [first, store.reset(), store.commit()];
    await expect(Promise.all(commits)).resolves.toBeDefined();
    expect(store.refunds.size).toBe(0);
    expect(logFiles()).toEqual([]);
    expect((await open()).refunds.size).toBe(0);
  });

  it('reset removes every log file', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1));
    await store.commit();
    await store.reset();
    expect(logFiles()).toEqual([]);
    expect((await open()).refunds.size).toBe(0);
  });
});

describe('a write that fails', () => {
  it('fails its commit, keeps the records to write, and the next commit writes them', async () => {
    // The disk's answer is the one thing faked: the real file storage, whose first append reports a full disk.
    const real = fileStorage(data);
    let failures = 1;
    const storage: DocumentStorage = {
      ...real,
      append: (name, text) => (failures-- > 0 ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })) : real.append(name, text)),
      readAll: () => real.readAll(),
      remove: (name) => real.remove(name),
      open: (name) => real.open(name),
    };
    const log = new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 100 });
    log.put(refundRecord(1));
    log.put(refundRecord(2));
    await expect(log.flush()).rejects.toThrow('ENOSPC');
    log.put(refundRecord(3));
    await log.flush();
    expect(linesOf(logFile(1))).toEqual([refundRecord(1), refundRecord(2), refundRecord(3)]);
  });
});

describe('the retention', () => {
  it('keeps the newest `limit` refunds, dropping the oldest first, and a start keeps the same ones', async () => {
    const store = await open(3);
    for (let n = 1; n <= 5; n++) store.refunds.put(refundRecord(n));
    await store.commit();
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0003', 'rf-0004', 'rf-0005']);
    expect(store.refunds.get('rf-0001')).toBeUndefined();
    expect((await open(3)).refunds.all().map((refund) => refund.id)).toEqual(['rf-0003', 'rf-0004', 'rf-0005']);
    // A lower limit at start applies at once.
    expect((await open(1)).refunds.all().map((refund) => refund.id)).toEqual(['rf-0005']);
  });

  it('never drops a PENDING refund: it is still to be decided', async () => {
    const store = await open(2);
    for (let n = 1; n <= 3; n++) store.refunds.put(refundRecord(n, { status: 'PENDING' }));
    store.refunds.put(refundRecord(4));
    await store.commit();
    // Over the limit with only PENDING ones older: the oldest refund that may go is the newest.
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0001', 'rf-0002', 'rf-0003']);
    // Once decided and written, the oldest goes, the store being over its limit.
    store.refunds.put(refundRecord(1));
    await store.commit();
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0002', 'rf-0003']);
  });

  it('comes back for a refund it passed over once that one may go, and only then for younger ones', async () => {
    const store = await open(2);
    store.refunds.put(refundRecord(1, { status: 'PENDING' }));
    store.refunds.put(refundRecord(2));
    store.refunds.put(refundRecord(3));
    await store.commit();
    // 1 is held (PENDING), so 2 went.
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0001', 'rf-0003']);
    store.refunds.put(refundRecord(1));
    await store.commit();
    store.refunds.put(refundRecord(4));
    await store.commit();
    // The oldest again: 1, now decided and written, not 3, the next after where the last drop stopped.
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0003', 'rf-0004']);
  });

  it('drops refund after refund from where it stopped, the oldest first, as refunds keep coming', async () => {
    const store = await open(3);
    for (let n = 1; n <= 50; n++) {
      store.refunds.put(refundRecord(n));
      if (n % 7 === 0) await store.commit();
    }
    await store.commit();
    expect(store.refunds.all().map((refund) => refund.id)).toEqual(['rf-0048', 'rf-0049', 'rf-0050']);
    expect((await open(3)).refunds.all().map((refund) => refund.id)).toEqual(['rf-0048', 'rf-0049', 'rf-0050']);
  });

  it('does not rewrite a file for refunds the retention dropped: it removes it once they all are', async () => {
    const log = new RecordLog<RefundRecord>(fileStorage(data), 'refunds', (refund) => refund.id, { limit: 4, linesPerFile: 4 });
    for (let n = 1; n <= 4; n++) log.put(refundRecord(n));
    await log.flush();
    log.put(refundRecord(5));
    log.put(refundRecord(6));
    await log.flush();
    // 1 and 2 dropped: half of file 1, which a superseded half would have had rewritten. It stays as written.
    expect(linesOf(logFile(1)).map((refund) => refund.id)).toEqual(['rf-0001', 'rf-0002', 'rf-0003', 'rf-0004']);
    log.put(refundRecord(7));
    log.put(refundRecord(8));
    await log.flush();
    expect(logFiles()).toEqual(['refunds-log-000002.jsonl']);
    expect(log.all().map((refund) => refund.id)).toEqual(['rf-0005', 'rf-0006', 'rf-0007', 'rf-0008']);
  });

  it('drops a refund only once its decided version is written, so a start keeps the same ones, none PENDING again', async () => {
    const store = await open(2);
    for (let n = 1; n <= 5; n++) store.refunds.put(refundRecord(n, { status: 'PENDING' }));
    await store.commit();
    // Decided one by one, as the refund processor does, and written together.
    for (let n = 1; n <= 5; n++) store.refunds.put(refundRecord(n));
    await store.commit();
    expect(store.refunds.all().map((refund) => [refund.id, refund.status])).toEqual([
      ['rf-0004', 'PROCESSED'],
      ['rf-0005', 'PROCESSED'],
    ]);
    const reopened = await open(2);
    expect(reopened.refunds.all().map((refund) => [refund.id, refund.status])).toEqual([
      ['rf-0004', 'PROCESSED'],
      ['rf-0005', 'PROCESSED'],
    ]);
  });

  it('keeps the log files bounded: every refund settled, 10 files of 100 lines at most for a limit of 300', async () => {
    const log = new RecordLog<RefundRecord>(fileStorage(data), 'refunds', (refund) => refund.id, { limit: 300, linesPerFile: 100 });
    let most = 0;
    // Five times the limit: the oldest files have long been removed by the end.
    for (let n = 1; n <= 1500; n++) {
      log.put(refundRecord(n, { status: 'PENDING' }));
      if (n % 7 === 0) await log.flush();
      log.put(refundRecord(n));
      if (n % 5 === 0) await log.flush();
      if (n % 50 === 0) most = Math.max(most, logFiles().length);
    }
    await log.flush();
    expect(log.size).toBe(300);
    // 300 kept records have their latest line in at most 4 files (100 lines each, some lines older versions),
    // plus the current one; the rest were removed once nothing in them was kept.
    expect(most).toBeLessThanOrEqual(10);
    const onDisk = logFiles().flatMap((name) => linesOf(join(dir, 'db.segments', name)));
    expect(new Set(onDisk.map((refund) => refund.id)).size).toBeLessThan(1000);
    expect(onDisk.at(-1)).toEqual(refundRecord(1500));
  });
});

describe('a file that cannot be removed', () => {
  it('fails no commit, a start keeps the same refunds, and a reset removes it', async () => {
    const real = fileStorage(data);
    let refuse = true;
    const storage: DocumentStorage = {
      ...real,
      remove: (name) => (refuse ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, unlink '${name}'`), { code: 'EACCES' })) : real.remove(name)),
    };
    const log = () => new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 2, linesPerFile: 2 });
    const first = log();
    first.put(refundRecord(1));
    first.put(refundRecord(2));
    await first.flush();
    first.put(refundRecord(3));
    first.put(refundRecord(4));
    // 1 and 2 dropped: file 1 is no longer needed, and its removal is refused.
    await expect(first.flush()).resolves.toBeUndefined();
    expect(first.all()).toEqual([refundRecord(3), refundRecord(4)]);
    expect(logFiles()).toEqual(['refunds-log-000001.jsonl', 'refunds-log-000002.jsonl']);
    first.put(refundRecord(5));
    await expect(first.flush()).resolves.toBeUndefined();

    const stored = await real.readAll();
    const second = log();
    second.load([], stored.entries.flatMap((entry) => (entry.log?.content.ok ? [{ number: Number(entry.log.name.slice(-6)), records: entry.log.content.records as RefundRecord[] }] : [])));
    expect(second.all()).toEqual([refundRecord(4), refundRecord(5)]);

    refuse = false;
    await first.clear();
    expect(logFiles()).toEqual([]);
  });
});

describe('the check of a log at start', () => {
  let before: Record<string, string>;
  beforeEach(async () => {
    const store = await open();
    for (let n = 1; n <= 3; n++) store.refunds.put(refundRecord(n));
    await store.commit();
    before = folderPicture(dir);
  });

  const refusalOf = async () => ((await open().catch((error: unknown) => error)) as Error).message;

  it.each<[string, () => void, () => string]>([
    [
      'a broken line before the last',
      () => writeFileSync(logFile(1), `${JSON.stringify(refundRecord(1))}\n{"id":\n${JSON.stringify(refundRecord(2))}\n`),
      () => `${logFile(1)}: line 2 is not a JSON record (byte offset ${JSON.stringify(refundRecord(1)).length + 1})`,
    ],
    [
      'a refund of the wrong shape',
      () => writeFileSync(logFile(1), `${JSON.stringify({ ...refundRecord(1), status: 'DONE' })}\n`),
      () => `${logFile(1)}: line 1: status must be one of "PENDING", "PROCESSED", "FAILED", got string "DONE"`,
    ],
    [
      'an order in the refunds log',
      () => writeFileSync(logFile(1), `${JSON.stringify(storeFixtures.orders[0])}\n`),
      () => `${logFile(1)}: line 1: is an order record (it has OrderId), not a refund: a refunds log holds refunds only`,
    ],
    ['bytes that are not UTF-8', () => writeFileSync(logFile(1), Buffer.from('{"id":"caf\xe9"}\n', 'latin1')), () => `${logFile(1)}: holds 1 byte that is not UTF-8 text (the first at byte offset 10), so it is not a record log`],
    [
      // The lines around it are the sandbox's own, which a start takes without the schema; this one is not.
      'a refund of the wrong shape among lines the sandbox wrote',
      () => writeFileSync(logFile(1), [refundRecord(1), { ...refundRecord(2), acceptedAt: 'yesterday' }, refundRecord(3)].map((record) => `${JSON.stringify(record)}\n`).join('')),
      () => `${logFile(1)}: line 2: acceptedAt must match ^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$, got string "yesterday"`,
    ],
    [
      'a refund whose keys a hand put in another order, and one of them wrong',
      () => writeFileSync(logFile(1), `${JSON.stringify(refundRecord(1))}\n${JSON.stringify(Object.fromEntries(Object.entries({ ...refundRecord(2), status: 'DONE' }).reverse()))}\n`),
      () => `${logFile(1)}: line 2: status must be one of "PENDING", "PROCESSED", "FAILED", got string "DONE"`,
    ],
  ])('refuses %s, names the file and line, and changes nothing on disk', async (_name, damage, problem) => {
    damage();
    const damaged = folderPicture(dir);
    expect(damaged).not.toEqual(before);
    expect(await refusalOf()).toContain(`\n  - ${problem()}\n`);
    expect(folderPicture(dir)).toEqual(damaged);
  });

  it('refuses a log file where the data file is missing, as it does a segment', async () => {
    rmSync(data);
    expect(await refusalOf()).toContain(`${data}: missing, but ${join(dir, 'db.segments')} holds 2 files of an earlier run`);
    expect(existsSync(logFile(1))).toBe(true);
  });
});

describe('lines read at start', () => {
  const viewOf = ({ id, externalId, locationId, status, acceptedAt }: RefundRecord) => ({ id, externalId, locationId, status, acceptedAt });

  it('keeps the lines the sandbox wrote as text: views hold the indexed fields only, get and all give whole records', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1, { status: 'PENDING' }));
    store.refunds.put(refundRecord(2, { status: 'FAILED', detail: 'no order', orderId: undefined }));
    await store.commit();
    const reopened = await open();
    // Only the indexed fields: nothing else of these lines was parsed.
    expect(reopened.refunds.views()).toEqual([viewOf(refundRecord(1, { status: 'PENDING' })), viewOf(refundRecord(2, { status: 'FAILED' }))]);
    expect(reopened.refunds.get('rf-0002')).toEqual(refundRecord(2, { status: 'FAILED', detail: 'no order', orderId: undefined }));
    expect(reopened.refunds.all()).toEqual([refundRecord(1, { status: 'PENDING' }), refundRecord(2, { status: 'FAILED', detail: 'no order', orderId: undefined })]);
    // A record changed since is held whole again.
    reopened.refunds.put(refundRecord(1));
    expect(reopened.refunds.views()[0]).toEqual(refundRecord(1));
  });

  it('reads a line a hand rewrote in another key order as the same refund, parsed and checked', async () => {
    const store = await open();
    store.refunds.put(refundRecord(1));
    await store.commit();
    const reordered = Object.fromEntries(Object.entries(refundRecord(2)).reverse());
    appendFileSync(logFile(1), `${JSON.stringify(reordered)}\n`);
    const reopened = await open();
    expect(reopened.refunds.views()).toEqual([viewOf(refundRecord(1)), refundRecord(2)]);
    expect(reopened.refunds.all()).toEqual([refundRecord(1), refundRecord(2)]);
  });

  it('rewrites a compacted file with the lines kept as text as they were, byte for byte', async () => {
    const at = (n: number, status: RefundRecord['status']) => refundRecord(n, { status, acceptedAt: `2026-11-21T10:00:${String(n).padStart(2, '0')}.000Z` });
    const log = () => new RecordLog<RefundRecord>(fileStorage(data), 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 4, placeOf: acceptedAtMs });
    const first = log();
    for (let n = 1; n <= 4; n++) first.put(at(n, 'PROCESSED'));
    await first.flush();
    const written = readFileSync(logFile(1), 'utf8').split('\n');
    const stored = await fileStorage(data).readAll();
    const second = log();
    second.load([], [{ number: 1, records: (stored.entries[0]!.log!.content as { records: RefundRecord[] }).records }]);
    second.put(at(1, 'FAILED'));
    await second.flush();
    await second.compacted();
    // One line of four superseded: file 1 is rewritten with the other three, as they were.
    expect(readFileSync(logFile(1), 'utf8')).toBe(`${written.slice(1, 4).join('\n')}\n`);
    expect(second.all()).toEqual([at(1, 'FAILED'), at(2, 'PROCESSED'), at(3, 'PROCESSED'), at(4, 'PROCESSED')]);
  });
});

describe('acceptedAtMs', () => {
  it.each(['2026-11-21T10:00:00.000Z', '1999-12-31T23:59:59.999Z', '2026-02-28T00:00:00.5Z', '2026-11-21T10:00:00Z', '2026-11-21T10:00:00.123456Z'])('places %s where Date.parse does', (time) => {
    expect(acceptedAtMs(refundRecord(1, { acceptedAt: time }))).toBe(Date.parse(time));
  });

  it('places any time toISOString writes in four digits of year where Date does, leap days and centuries included', () => {
    const times = fc.oneof(fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), fc.constantFrom(...['1900-02-28', '1900-03-01', '2000-02-29', '2100-03-01', '0000-02-29', '0099-12-31'].map((day) => new Date(`${day}T23:59:59.999Z`))));
    fc.assert(fc.property(times, (date) => acceptedAtMs(refundRecord(1, { acceptedAt: date.toISOString() })) === date.getTime()));
  });
});
