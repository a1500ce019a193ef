/**
 * Rewrites of the refunds' record log on real files in a temp folder: when a closed file is rewritten, what it keeps,
 * that its lines are copied from the file as they are, and that neither a rewrite under way nor one that fails holds
 * or fails a commit.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RefundRecord } from '../refunds/refund-rules.js';
import { RecordLog } from './record-log.js';
import { acceptedAtMs } from './sandbox-store.js';
import { fileStorage, type DocumentStorage } from './segment-storage.js';
import { refundRecord } from '../test/stored-state.js';

let dir: string;
let data: string;
const logFile = (n: number) => join(dir, 'db.segments', `refunds-log-${String(n).padStart(6, '0')}.jsonl`);
const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as RefundRecord);
const logFiles = () => readdirSync(join(dir, 'db.segments')).filter((name) => name.startsWith('refunds-log-')).sort();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'record-log-rewrites-'));
  data = join(dir, 'db.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Refund n accepted at second n, so acceptance order is n's.
const at = (n: number, status: RefundRecord['status']) => refundRecord(n, { status, acceptedAt: `2026-11-21T10:00:${String(n).padStart(2, '0')}.000Z` });

/** A log made by `make`, started on what is on disk now as a start reads it (refund-line.ts, then JSON.parse for other forms). */
async function reopenWith(make: () => RecordLog<RefundRecord>): Promise<RecordLog<RefundRecord>> {
  const stored = await fileStorage(data).readAll();
  const reopened = make();
  reopened.load([], stored.entries.flatMap((entry) => (entry.log?.content.ok ? [{ number: Number(entry.log.name.slice(-6)), records: entry.log.content.records as RefundRecord[] }] : [])));
  return reopened;
}

describe('compaction', () => {
  const log = () => new RecordLog<RefundRecord>(fileStorage(data), 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 4, placeOf: acceptedAtMs });
  const reopen = () => reopenWith(log);

  it('rewrites a closed file once a fifth of its lines or more are older versions, with only the latest ones, and a start reads the same refunds', async () => {
    const first = log();
    for (let n = 1; n <= 4; n++) first.put(at(n, 'PENDING'));
    await first.flush();
    first.put(at(5, 'PENDING'));
    await first.flush();
    // Nothing superseded yet: file 1 stays as written.
    expect(linesOf(logFile(1))).toHaveLength(4);
    first.put(at(1, 'PROCESSED'));
    first.put(at(2, 'FAILED'));
    await first.flush();
    await first.compacted();
    // 2 of 4, a fifth or more: rewritten with the two lines still the latest.
    expect(linesOf(logFile(1))).toEqual([at(3, 'PENDING'), at(4, 'PENDING')]);
    expect(linesOf(logFile(2))).toEqual([at(5, 'PENDING'), at(1, 'PROCESSED'), at(2, 'FAILED')]);
    expect((await reopen()).all()).toEqual([at(1, 'PROCESSED'), at(2, 'FAILED'), at(3, 'PENDING'), at(4, 'PENDING'), at(5, 'PENDING')]);
  });

  it('keeps the acceptance order at start, though a compacted file puts older refunds after younger ones', async () => {
    const first = log();
    for (let n = 1; n <= 4; n++) first.put(at(n, 'PENDING'));
    await first.flush();
    first.put(at(1, 'PROCESSED'));
    first.put(at(2, 'PROCESSED'));
    first.put(at(5, 'PENDING'));
    await first.flush();
    await first.compacted();
    // File 1 now starts with refund 3, and file 2 with refunds 1, 2, 5: read in file order, 3 and 4 would come first.
    expect(linesOf(logFile(1)).map((refund) => refund.id)).toEqual(['rf-0003', 'rf-0004']);
    expect((await reopen()).all().map((refund) => refund.id)).toEqual(['rf-0001', 'rf-0002', 'rf-0003', 'rf-0004', 'rf-0005']);
  });

  it('leaves about one line a kept refund on disk once every refund is decided', async () => {
    const busy = log();
    for (let n = 1; n <= 40; n++) {
      busy.put(at(n, 'PENDING'));
      await busy.flush();
      await busy.compacted();
      if (n > 2) busy.put(at(n - 2, 'PROCESSED'));
    }
    busy.put(at(39, 'PROCESSED'));
    busy.put(at(40, 'PROCESSED'));
    for (let n = 0; n < 3; n++) {
      await busy.flush();
      await busy.compacted();
    }
    const onDisk = logFiles().flatMap((name) => linesOf(join(dir, 'db.segments', name)));
    // 40 refunds, each written twice: 80 lines without compaction; the current file may still hold older versions.
    expect(onDisk.length).toBeLessThanOrEqual(40 + 4);
    expect((await reopen()).all()).toEqual(Array.from({ length: 40 }, (_, i) => at(i + 1, 'PROCESSED')));
  });
});

describe('a compaction under way', () => {
  it('holds no commit: appends go on while the rewrite waits, one file is rewritten at a time, and a reset waits for it', async () => {
    const real = fileStorage(data);
    const rewrites: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached = () => {};
    // The rewrite starts once the file is read back (its lines are copied from it), a turn or two after the flush.
    const rewriting = new Promise<void>((resolve) => (reached = resolve));
    const storage: DocumentStorage = {
      ...real,
      rewrite: async (name, text) => {
        rewrites.push(name);
        reached();
        await held;
        await real.rewrite(name, text);
      },
    };
    const log = new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 2 });
    for (let n = 1; n <= 4; n++) {
      log.put(refundRecord(n, { status: 'PENDING' }));
      await log.flush();
    }
    // Refunds 1 and 3 decided: half of file 1 and half of file 2 superseded; file 1 is rewritten first, and held.
    log.put(refundRecord(1));
    log.put(refundRecord(3));
    await log.flush();
    await rewriting;
    expect(rewrites).toEqual(['refunds-log-000001']);
    // Commits go on meanwhile, and file 2 waits for its turn.
    log.put(refundRecord(5, { status: 'PENDING' }));
    await log.flush();
    expect(linesOf(logFile(4))).toEqual([refundRecord(5, { status: 'PENDING' })]);
    expect(rewrites).toEqual(['refunds-log-000001']);
    let cleared = false;
    const clearing = log.clear().then(() => (cleared = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cleared).toBe(false);
    release();
    await clearing;
    expect(logFiles()).toEqual([]);
    expect(log.all()).toEqual([]);
  });
});

describe('a rewrite that fails', () => {
  it('fails no commit: the file stays as written, and is not rewritten again at each commit', async () => {
    const real = fileStorage(data);
    let tries = 0;
    const storage: DocumentStorage = { ...real, rewrite: () => (tries++, Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))) };
    const log = new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 2 });
    log.put(refundRecord(1, { status: 'PENDING' }));
    log.put(refundRecord(2, { status: 'PENDING' }));
    await log.flush();
    // Refund 1 decided: half of file 1 superseded, so it is rewritten, and the disk refuses.
    log.put(refundRecord(1));
    await log.flush();
    await log.compacted();
    expect(tries).toBe(1);
    log.put(refundRecord(3));
    await log.flush();
    await log.compacted();
    expect(tries).toBe(1);
    expect(linesOf(logFile(1))).toEqual([refundRecord(1, { status: 'PENDING' }), refundRecord(2, { status: 'PENDING' })]);
    expect(log.all()).toEqual([refundRecord(1), refundRecord(2, { status: 'PENDING' }), refundRecord(3)]);
  });
});

describe('a file holding a refund still PENDING', () => {
  /** A log as the store's refunds (a PENDING refund will be written again once decided), and the files it rewrote. */
  const refundsLog = (linesPerFile: number) => {
    const real = fileStorage(data);
    const rewrites: string[] = [];
    const storage: DocumentStorage = { ...real, rewrite: (name, text) => (rewrites.push(name), real.rewrite(name, text)) };
    const log = new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 100, linesPerFile, placeOf: acceptedAtMs, changesAgain: (refund) => refund.status === 'PENDING' });
    return { log, rewrites };
  };

  it('is not rewritten as its refunds are decided one at a time, and is removed once every one is', async () => {
    const { log, rewrites } = refundsLog(5);
    for (let n = 1; n <= 5; n++) log.put(at(n, 'PENDING'));
    await log.flush();
    // Decided one commit at a time: two of five superseded, then three, then four, with PENDING ones left in file 1.
    for (let n = 1; n <= 4; n++) {
      log.put(at(n, 'PROCESSED'));
      await log.flush();
      await log.compacted();
    }
    expect(rewrites).toEqual([]);
    expect(linesOf(logFile(1))).toHaveLength(5);
    log.put(at(5, 'FAILED'));
    await log.flush();
    await log.compacted();
    // Every line of file 1 superseded: it is removed, never rewritten.
    expect(rewrites).toEqual([]);
    expect(logFiles()).toEqual(['refunds-log-000002.jsonl']);
    expect(log.all()).toEqual([at(1, 'PROCESSED'), at(2, 'PROCESSED'), at(3, 'PROCESSED'), at(4, 'PROCESSED'), at(5, 'FAILED')]);
  });

  it('is rewritten once its PENDING refunds are decided, keeping the lines of those decided before it closed', async () => {
    const { log, rewrites } = refundsLog(6);
    // File 1: refunds 1–4 accepted, 1 and 2 decided in the same file; 3 and 4 still PENDING when it closes.
    for (let n = 1; n <= 4; n++) log.put(at(n, 'PENDING'));
    await log.flush();
    log.put(at(1, 'PROCESSED'));
    log.put(at(2, 'PROCESSED'));
    await log.flush();
    await log.compacted();
    expect(rewrites).toEqual([]);
    log.put(at(3, 'PROCESSED'));
    await log.flush();
    await log.compacted();
    // Refund 4 is still PENDING in file 1: not yet.
    expect(rewrites).toEqual([]);
    log.put(at(4, 'FAILED'));
    await log.flush();
    await log.compacted();
    expect(linesOf(logFile(1))).toEqual([at(1, 'PROCESSED'), at(2, 'PROCESSED')]);
    expect(rewrites).toEqual(['refunds-log-000001']);
  });
});

describe('what a rewrite copies', () => {
  /**
   * A line as a hand or another tool might write it: the same refund, its keys in reverse order and a space after each
   * comma, a form that rendering the record again would not give (JSON.stringify keeps the order but not the spaces).
   */
  const handWritten = (record: RefundRecord) => JSON.stringify(Object.fromEntries(Object.entries(record).reverse())).replaceAll(',"', ', "');
  const log = () => new RecordLog<RefundRecord>(fileStorage(data), 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 5, placeOf: acceptedAtMs });
  const reopen = () => reopenWith(log);
  /** File 1 holding refunds 1–5 PENDING as a hand wrote them, and a last line cut short. */
  const handWrittenFile = () => {
    const first = log();
    first.put(at(9, 'PENDING'));
    // Makes the folder and file 1; then file 1 is replaced by the hand-written lines.
    return first.flush().then(() => {
      const lines = [1, 2, 3, 4, 5].map((n) => handWritten(at(n, 'PENDING')));
      writeFileSync(logFile(1), `${lines.join('\n')}\n${handWritten(at(6, 'PENDING')).slice(0, 30)}`);
      return lines;
    });
  };

  it('copies each line kept from the file as it is, leaves out a last line cut short, and a second rewrite keeps the right lines', async () => {
    const lines = await handWrittenFile();
    const second = await reopen();
    // Refund 1 decided: a fifth of file 1 superseded, so it is rewritten.
    second.put(at(1, 'PROCESSED'));
    await second.flush();
    await second.compacted();
    expect(readFileSync(logFile(1), 'utf8')).toBe(`${lines.slice(1).join('\n')}\n`);
    // Refund 3 decided: a fourth of what is left; the rewrite finds each line at its new place, not its first.
    second.put(at(3, 'FAILED'));
    await second.flush();
    await second.compacted();
    expect(readFileSync(logFile(1), 'utf8')).toBe(`${[lines[1], lines[3], lines[4]].join('\n')}\n`);
    expect((await reopen()).all()).toEqual([at(1, 'PROCESSED'), at(2, 'PENDING'), at(3, 'FAILED'), at(4, 'PENDING'), at(5, 'PENDING')]);
  });

  it('renders a line from its record when the file no longer holds it where it was (changed under the sandbox)', async () => {
    const lines = await handWrittenFile();
    const second = await reopen();
    // Someone else puts a refund the sandbox never had in the place of refund 2's line while the sandbox runs.
    writeFileSync(logFile(1), `${[lines[0], handWritten(at(7, 'PENDING')), lines[2], lines[3], lines[4]].join('\n')}\n`);
    second.put(at(1, 'PROCESSED'));
    await second.flush();
    await second.compacted();
    // Refund 2 is written from what the sandbox holds (the record as it was read, keys in its order), not refund 7.
    expect(readFileSync(logFile(1), 'utf8')).toBe(`${[JSON.stringify(second.get('rf-0002')), lines[2], lines[3], lines[4]].join('\n')}\n`);
    expect((await reopen()).all()).toEqual([at(1, 'PROCESSED'), at(2, 'PENDING'), at(3, 'PENDING'), at(4, 'PENDING'), at(5, 'PENDING')]);
  });

  it("reads '' for a log file there is none of, as the database's storage does", async () => {
    expect(await fileStorage(data).readLog('refunds-log-000042')).toBe('');
  });

  it('leaves a file as it is when it cannot be read back, and does not try it again at each commit', async () => {
    const real = fileStorage(data);
    let reads = 0;
    const storage: DocumentStorage = { ...real, readLog: () => (reads++, Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))) };
    const broken = new RecordLog<RefundRecord>(storage, 'refunds', (refund) => refund.id, { limit: 100, linesPerFile: 2 });
    broken.put(at(1, 'PENDING'));
    broken.put(at(2, 'PENDING'));
    await broken.flush();
    broken.put(at(1, 'PROCESSED'));
    await broken.flush();
    await broken.compacted();
    broken.put(at(3, 'PROCESSED'));
    await broken.flush();
    await broken.compacted();
    expect(reads).toBe(1);
    expect(linesOf(logFile(1))).toEqual([at(1, 'PENDING'), at(2, 'PENDING')]);
    expect(broken.all()).toEqual([at(1, 'PROCESSED'), at(2, 'PENDING'), at(3, 'PROCESSED')]);
  });
});
