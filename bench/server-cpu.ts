/** The server's own CPU (from /proc) per 500-item menu update and per clean refund at a light load; the journal's latencies miss what runs after the answer. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { cpuMs, freePort, refundHeaders, startPinnedServer, uniqueRefund } from './bench-process.js';

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 4000);
const MENU_UPDATES = Number(process.env.BENCH_MENU_UPDATES ?? 200);
export const MENU_ITEMS = 500;

/** A copy of fixtures/ whose loc-std-001 menu has `count` items. */
function fixturesWithBigMenu(dir: string, count: number): void {
  cpSync(join(PACKAGE_ROOT, 'fixtures'), dir, { recursive: true });
  const file = join(dir, 'menus', 'loc-std-001.json');
  const menu = JSON.parse(readFileSync(file, 'utf8')) as { Items: unknown[] };
  menu.Items = Array.from({ length: count }, (_, i) => ({ Id: `itm-bench-${i}`, Name: `Bench item ${i}`, Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 100 + i }] }));
  writeFileSync(file, JSON.stringify(menu));
}

/** Every item of the big menu at a new price: every update changes all 500 and is stored. */
function bigMenuUpdate(round: number): string {
  const Items = Array.from({ length: MENU_ITEMS }, (_, i) => ({ Id: `itm-bench-${i}`, Name: `Bench item ${i}`, Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 1000 + round * 7 + i }] }));
  return JSON.stringify({ LocationId: 'loc-std-001', Items });
}

/** The least of three runs after a warm-up: a neighbour only ever adds. */
async function cpuPerRequest(url: string, pid: number, amount: number, request: { path: string; method: 'POST' | 'PUT'; body: () => string }): Promise<{ us: number; non2xx: number }> {
  const run = () =>
    autocannon({ url: `${url}${request.path}`, connections: 4, amount, headers: refundHeaders(), requests: [{ method: request.method, setupRequest: (req) => ({ ...req, body: request.body() }) }] });
  await run();
  let least = Infinity;
  let non2xx = 0;
  for (let round = 0; round < 3; round++) {
    const before = cpuMs(pid);
    const result = await run();
    least = Math.min(least, ((cpuMs(pid) - before) * 1000) / amount);
    non2xx += result.non2xx;
  }
  return { us: least, non2xx };
}

export interface CpuRow {
  name: string;
  refundUs: number;
  menuMs: number;
  non2xx: number;
}

/** Bare Express 5 (the floor: parsing the same bodies, answering 200), then the sandbox with each store. */
export async function serverCpu(): Promise<CpuRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-cpu-'));
  fixturesWithBigMenu(join(dir, 'fixtures'), MENU_ITEMS);
  let round = 0;
  const menu = { path: '/v2/menu', method: 'PUT', body: () => bigMenuUpdate(round++) } as const;
  const servers: Array<[string, string[]]> = [
    ['bare Express 5', [join('bench', 'bare-express.js')]],
    ['pos-sandbox serve --memory', [join('bin', 'pos-sandbox.js'), 'serve', '--log-level', 'warn', '--fixtures', join(dir, 'fixtures'), '--memory']],
    ['pos-sandbox serve (data file)', [join('bin', 'pos-sandbox.js'), 'serve', '--log-level', 'warn', '--fixtures', join(dir, 'fixtures'), '--data', join(dir, 'db.json')]],
  ];
  const rows: CpuRow[] = [];
  try {
    for (const [name, args] of servers) {
      const port = await freePort();
      const server = await startPinnedServer(args, { PORT: port });
      try {
        const pid = server.child.pid!;
        // Menu first: refunds are decided a second after they are accepted, and that work would land in the menu's count.
        const menuCost = await cpuPerRequest(server.url, pid, MENU_UPDATES, menu);
        const refundCost = await cpuPerRequest(server.url, pid, REFUNDS, uniqueRefund(`CPU${rows.length}`));
        rows.push({ name, refundUs: refundCost.us, menuMs: menuCost.us / 1000, non2xx: menuCost.non2xx + refundCost.non2xx });
      } finally {
        server.child.kill('SIGKILL');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await serverCpu()) {
    console.log(`${row.name}: ${row.refundUs.toFixed(0)} µs per refund, ${row.menuMs.toFixed(2)} ms per ${MENU_ITEMS}-item menu update (non-2xx ${row.non2xx})`);
  }
}
