/** Test helpers: a real state folder written by the store itself, and a byte-for-byte picture of a folder. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RefundRecord } from '../refunds/refund-rules.js';
import { loadFixtures } from '../fixtures/load-fixtures.js';
import { SandboxStore } from '../store/sandbox-store.js';
import { fileStorage, segmentsFolderOf } from '../store/segment-storage.js';
import { PACKAGE_ROOT } from '../version.js';

export const storeFixtures = loadFixtures(join(PACKAGE_ROOT, 'fixtures'));
export const STORE_CLOCK = () => Date.parse('2026-11-21T10:00:00Z');

/**
 * A refund record as the refund processor writes it, keys in its order, so a start reads its line as the sandbox's
 * own (a `reason` added by `changes` comes last, which is not that order, so that line is parsed and checked).
 */
export function refundRecord(n: number, changes: Partial<RefundRecord> = {}): RefundRecord {
  return {
    id: `rf-${String(n).padStart(4, '0')}`,
    externalId: 'POS-STD-1001',
    locationId: 'loc-std-001',
    partner: 'demo-pos',
    requestId: `req-${n}`,
    journalId: `j-${String(n).padStart(6, '0')}`,
    status: 'PROCESSED',
    acceptedAt: '2026-11-21T10:00:00.000Z',
    dueAt: '2026-11-21T10:00:01.000Z',
    detail: 'order ord-std-0001 refunded',
    orderId: 'ord-std-0001',
    processedAt: '2026-11-21T10:00:01.000Z',
    ...changes,
  };
}

/**
 * Writes a state the way a run does: the fixtures, `refunds` refunds, one fault rule in force, and a changed menu.
 * Resolves once everything is on disk. The refunds go to the record log, or with `earlierVersion` to segments of
 * 100 (`refunds-000001.json`, …) as versions before the log wrote them.
 */
export async function writeGoodState(dataFile: string, refunds = 3, options: { earlierVersion?: boolean } = {}): Promise<void> {
  const store = await SandboxStore.open(fileStorage(dataFile), storeFixtures, STORE_CLOCK);
  if (options.earlierVersion) {
    const folder = segmentsFolderOf(dataFile);
    mkdirSync(folder, { recursive: true });
    for (let first = 1; first <= refunds; first += 100) {
      const records = Array.from({ length: Math.min(100, refunds - first + 1) }, (_, i) => refundRecord(first + i));
      writeFileSync(join(folder, `refunds-${String(Math.ceil(first / 100)).padStart(6, '0')}.json`), JSON.stringify(records));
    }
  } else for (let n = 1; n <= refunds; n++) store.refunds.put(refundRecord(n));
  store.putFaultRules([
    { id: 'outage', description: 'the refund endpoint is down', match: { path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 2, source: 'api', addedAt: '2026-11-21T10:00:00.000Z', seen: 1, fired: 1 },
  ]);
  const menu = store.menu('loc-std-001')!;
  store.putMenu('loc-std-001', { ...menu, Items: menu.Items.map((item, i) => (i === 0 ? { ...item, Name: 'Renamed' } : item)) });
  await store.commit();
}

/** Every file and folder under `dir` with its bytes, to show that a refused start changed nothing. */
export function folderPicture(dir: string): Record<string, string> {
  const picture: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const key = relative(dir, full);
      if (statSync(full).isDirectory()) {
        picture[`${key}/`] = 'folder';
        walk(full);
      } else {
        picture[key] = readFileSync(full).toString('base64');
      }
    }
  };
  walk(dir);
  return picture;
}
