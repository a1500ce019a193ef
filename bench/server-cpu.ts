/**
 * npm run bench:cpu: the server's own CPU time (user + system, from /proc/<pid>/stat, so Linux only) per clean
 * refund and per form A update of a 500-item menu. CPU time, not the journal's latencies: those start after
 * the body is read and miss what runs once the answer has left. The 500-item menu is made in a temp folder.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../server/version.js';
import { refundHeaders, startServer, uniqueRefund } from './bench-process.js';

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 4000);
const MENU_UPDATES = Number(process.env.BENCH_MENU_UPDATES ?? 200);
const MENU_ITEMS = 500;
const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

/** User + system CPU of a process in milliseconds, from fields 14 and 15 of /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

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

/**
 * `amount` requests over 4 connections; the CPU the server spent on them, per request, in µs. The least of three
 * runs: the load generator shares the two cores, and a run it disturbs only ever costs more.
 */
async function cpuPerRequest(url: string, pid: number, amount: number, request: { path: string; method: 'POST' | 'PUT'; body: () => string }): Promise<{ us: number; non2xx: number }> {
  const run = () =>
    autocannon({ url: `${url}${request.path}`, connections: 4, amount, headers: refundHeaders(), requests: [{ method: request.method, setupRequest: (req) => ({ ...req, body: request.body() }) }] });
  await run(); // warm-up: JIT, first segment, first menu write
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

const dir = mkdtempSync(join(tmpdir(), 'pos-sandbox-cpu-'));
fixturesWithBigMenu(join(dir, 'fixtures'), MENU_ITEMS);
let round = 0;
const MENU = { path: '/v2/menu', method: 'PUT', body: () => bigMenuUpdate(round++) } as const;
try {
  // The floor: bare Express 5 parsing the same bodies and answering 200.
  const bare = await startServer([join('bench', 'bare-express.js')]);
  try {
    const menu = await cpuPerRequest(bare.url, bare.child.pid!, MENU_UPDATES, MENU);
    const refund = await cpuPerRequest(bare.url, bare.child.pid!, REFUNDS, uniqueRefund('BARE'));
    console.log(`\nbare Express 5 (baseline): ${refund.us.toFixed(0)} µs per refund, ${(menu.us / 1000).toFixed(2)} ms per ${MENU_ITEMS}-item menu update`);
  } finally {
    bare.child.kill('SIGKILL');
  }
  for (const store of [['--memory'], ['--data', join(dir, 'db.json')]]) {
    const server = await startServer([join('bin', 'pos-sandbox.js'), 'serve', '--log-level', 'warn', '--fixtures', join(dir, 'fixtures'), ...store]);
    try {
      const pid = server.child.pid!;
      // Menu first: refunds are decided a second after they are accepted, and that work would land in the menu's count.
      const menu = await cpuPerRequest(server.url, pid, MENU_UPDATES, MENU);
      const refund = await cpuPerRequest(server.url, pid, REFUNDS, uniqueRefund('CPU'));
      console.log(`\n${store[0]}: server CPU (user + system), ${MENU_UPDATES} menu updates then ${REFUNDS} refunds, each the least of 3 runs after a warm-up`);
      console.log(`POST /v2/order/refund (no finding):      ${refund.us.toFixed(0)} µs per refund, non-2xx ${refund.non2xx}`);
      console.log(`PUT /v2/menu (form A, all ${MENU_ITEMS} items):   ${(menu.us / 1000).toFixed(2)} ms per update, non-2xx ${menu.non2xx}`);
    } finally {
      server.child.kill('SIGKILL');
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
