/** The check of the stored state at start, as a user meets it: the real serve process, its exit code, its stderr, the files after. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { mintPosToken } from '../tokens/mint-pos-token.js';
import { SandboxStore } from '../store/sandbox-store.js';
import { fileStorage } from '../store/segment-storage.js';
import { cli, serve, stopServers } from './processes.js';
import { folderPicture, refundRecord, STORE_CLOCK, storeFixtures, writeGoodState } from './stored-state.js';

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
      (data, segments) => `${data}: missing, but ${segments} holds 2 files of an earlier run (its orders and refunds); a start without the data file would drop them`,
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

describe("pos-sandbox serve on another partner's state", () => {
  it('stops with exit code 2, naming both partners and the ways on, and leaves the files as they were; the same partner starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-check-'));
    folders.push(dir);
    const data = join(dir, 'db.json');
    const first = await serve(['--data', data]);
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(JSON.parse(readFileSync(data, 'utf8')).partner).toBe('demo-pos');
    const before = folderPicture(dir);
    const other = await cli(['serve', '--data', data, '--port', '0'], { SANDBOX_PARTNER: 'acme-pos' });
    expect({ code: other.code, stderr: other.stderr, stdout: other.stdout }).toEqual({
      code: 2,
      stderr: [
        `pos-sandbox: ${data} holds the state of partner 'demo-pos' (its orders, refunds and menus), but this sandbox runs as partner 'acme-pos' (SANDBOX_PARTNER, or the fixtures' partner): its orders would answer the other partner's calls, so the sandbox did not start (nothing on disk was changed).`,
        `To start afresh for 'acme-pos', start with --fresh-state: it moves ${data} and ${join(dir, 'db.segments')} aside (renamed with the time, nothing deleted). Or give --data a file of its own, or start with --memory.`,
        "To go on with 'demo-pos', start with SANDBOX_PARTNER=demo-pos (and its key).",
        '',
      ].join('\n'),
      stdout: '',
    });
    expect(folderPicture(dir)).toEqual(before);
    const again = await serve(['--data', data]);
    expect(again.banner).toContain(`state:                 ${data}`);
  });

  it("takes a state of an earlier version, which names no partner, as the partner's that starts on it", async () => {
    const { data } = await goodState();
    const adopted = await serve(['--data', data], { SANDBOX_PARTNER: 'acme-pos' });
    // A start writes nothing; the partner is written with the next change, a fault rule here.
    const rule = await fetch(`${adopted.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{"match":{"path":"/x"},"action":{"kind":"status","status":503}}]' });
    expect(rule.status).toBe(201);
    stopServers();
    const other = await cli(['serve', '--data', data, '--port', '0']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("holds the state of partner 'acme-pos'");
  });
});

describe('pos-sandbox serve on a refunds log cut short', () => {
  it.concurrent.each<[string, (text: string) => string, number, (log: string) => string]>([
    ['cut mid-line', (text) => text.slice(0, text.indexOf('\n') + 1 + 40), 1, (log) => `${log}: its last line is cut short (40 bytes with no newline): kept 1 line, left that line out`],
    ['cut to nothing', () => '', 0, (log) => `${log}: the file is empty: nothing kept from it`],
  ])('starts when the log is %s, and says which file, what it kept and left out, and the ways on', async (_name, cut, kept, note) => {
    const { dir, data, segments } = await goodState();
    const log = join(segments, 'refunds-log-000001.jsonl');
    writeFileSync(log, cut(readFileSync(log, 'utf8')));
    const before = folderPicture(dir);
    const { baseUrl, banner } = await serve(['--data', data, '--log-format', 'json', '--log-level', 'warn']);
    expect(banner).toContain(
      [
        `  state:                 ${data}`,
        `    ! ${note(log)}`,
        '    ! A line cut short is a change the sandbox never acknowledged if the machine stopped while writing it; it is also what a file cut short by a copy or a full disk looks like.',
        '    ! If refunds are missing that you expected, stop the sandbox now and restore the file named; to start afresh on purpose instead, start with --fresh-state (it moves the state aside, deleting nothing; docs/state-file.md).',
      ].join('\n'),
    );
    // The log says it too, as a warning a collector can alert on.
    expect(banner).toContain(`"level":40`);
    expect(((await (await fetch(`${baseUrl}/_sandbox/refunds`)).json()) as unknown[]).length).toBe(kept);
    // Nothing of the state on disk was changed by the start; the first start made the report key beside it.
    const { 'signing-key.pem': key, ...after } = folderPicture(dir);
    expect([after, Buffer.from(key!, 'base64').toString().startsWith('-----BEGIN PRIVATE KEY-----')]).toEqual([before, true]);
  });
});

describe('pos-sandbox serve --fresh-state', () => {
  it('moves the damaged state aside untouched, starts from the fixtures, and its records open again from where they went', async () => {
    const { dir, data, segments } = await goodState();
    writeFileSync(data, 'null');
    const before = folderPicture(dir);
    const { baseUrl, banner } = await serve(['--data', data, '--fresh-state']);

    const moved = /moved the earlier state aside \(nothing deleted\); to open it again: --data (\S+)\n {2}(\S+) → (\S+)\n {2}(\S+) → (\S+)\n/.exec(banner);
    expect(moved?.slice(2)).toEqual([data, moved?.[1], segments, moved?.[1]?.replace(/\.json$/, '.segments')]);
    const [asideData, asideSegments] = [moved![1]!, moved![5]!];
    expect(asideData).toMatch(new RegExp(`^${dir}/db\\.moved-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.json$`));
    const after = folderPicture(dir);
    for (const [path, bytes] of Object.entries(before)) {
      const renamed = path.replace(/^db\.json$/, asideData.slice(dir.length + 1)).replace(/^db\.segments/, asideSegments.slice(dir.length + 1));
      expect({ path: renamed, bytes: after[renamed] }).toEqual({ path: renamed, bytes });
    }

    expect(await (await fetch(`${baseUrl}/_sandbox/refunds`)).json()).toEqual([]);
    const { token } = mintPosToken({ posName: 'demo-pos', key: storeFixtures.partner.nonProdKey, locationId: 'loc-std-001', ttlSeconds: 300, nowSeconds: Math.floor(Date.now() / 1000) });
    const refund = await fetch(`${baseUrl}/v2/order/refund`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'x-service-locationid': 'loc-std-001', 'Content-Type': 'application/json' },
      body: JSON.stringify({ ExternalId: 'POS-STD-1002' }),
    });
    expect(refund.status).toBe(200);
    expect(JSON.parse(readFileSync(join(segments, 'refunds-log-000001.jsonl'), 'utf8'))).toEqual(expect.objectContaining({ externalId: 'POS-STD-1002' }));
    expect(folderPicture(dir)[`${asideSegments.slice(dir.length + 1)}/refunds-log-000001.jsonl`]).toBe(before['db.segments/refunds-log-000001.jsonl']);

    // Its data file was broken, so the pair is refused as it was; mended, it opens with its refunds.
    writeFileSync(asideData, readFileSync(data));
    const reopened = await SandboxStore.open(fileStorage(asideData), storeFixtures, STORE_CLOCK);
    expect(reopened.refunds.all()).toEqual([refundRecord(1), refundRecord(2), refundRecord(3)]);
    expect(existsSync(asideSegments)).toBe(true);
  });
});
